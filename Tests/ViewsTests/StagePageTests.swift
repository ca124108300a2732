import TabModel
import Testing

@testable import Views

@Test func theBarMarksTheSelectedTabAndDrawsItsGlowInTheAppTint() throws {
    let app = try demo("restaurant")
    var container = TabContainer(app: app)
    _ = container.select(.tab("wallet"), source: .url, isLoggedIn: false, at: testTime)
    let html = stageHTML(app, layout: .bottom, container: container, content: .tab(id: "wallet"))
    #expect(
        html.contains(
            "<a class=\"tab\" data-tab=\"wallet\" href=\"/restaurant/bottom/wallet\" aria-current=\"page\">"))
    #expect(html.contains("src=\"/icons/wallet/selected@1x.png?tint=FF9500&v=\(BuiltInIcon.wallet.artVersion)\""))
    #expect(
        html.contains(
            "srcset=\"/icons/home/unselected@1x.png?v=\(BuiltInIcon.home.artVersion) 1x, /icons/home/unselected@2x.png?v=\(BuiltInIcon.home.artVersion) 2x, "
                + "/icons/home/unselected@3x.png?v=\(BuiltInIcon.home.artVersion) 3x\""))
    #expect(html.components(separatedBy: "aria-current=\"page\"").count == 3)  // the tab and the layout link
    #expect(
        html.contains(
            "<main id=\"stage\" class=\"device device-bottom\" data-title=\"Your wallet – Restaurant · TabStage\""
                + " tabindex=\"-1\">"))
    #expect(html.contains("<link rel=\"stylesheet\" href=\"/theme/restaurant.css?tint=FF9500\">"))
}

@Test func pagesCarryNoInlineScriptStyleOrHandler() throws {
    for app in BuiltInApps.all {
        var container = TabContainer(app: app)
        for tab in app.tabs {
            _ = container.select(.tab(tab.id), source: .url, isLoggedIn: true, at: testTime)
            for layout in Layout.allCases {
                let html = stageHTML(app, layout: layout, container: container, content: .tab(id: tab.id))
                #expect(!html.contains(" style="))
                #expect(!html.contains("<style"))
                #expect(!html.contains(" on"), "no inline event handler attributes")
                #expect(html.components(separatedBy: "<script").count == 4, "the three scripts, no other")
                for script in ["tabstage", "live", "stage"] {
                    #expect(html.contains("<script src=\"/static/js/\(script).js\" defer></script>"))
                }
            }
        }
    }
}

@Test func aFragmentIsOnlyTheStage() throws {
    let app = try demo("vertical")
    var container = TabContainer(app: app)
    _ = container.select(.tab("inbox"), source: .url, isLoggedIn: false, at: testTime)
    let html = stageHTML(app, layout: .vertical, container: container, content: .tab(id: "inbox"), fragment: true)
    #expect(html.hasPrefix("<main id=\"stage\" class=\"device device-vertical\""))
    #expect(html.hasSuffix("</main>\n"))
    #expect(html.contains("data-axis=\"vertical\""))
    #expect(
        html.contains(
            "<span class=\"badge-words\">, </span></span><span class=\"badge\">4<span class=\"badge-words\">"
                + " unread</span></span>"))
}

@Test func aRefusedTabKeepsTheBarAndOffersALoginThatComesBack() throws {
    let app = try demo("vertical")
    var container = TabContainer(app: app)
    _ = container.select(.tab("discover"), source: .url, isLoggedIn: false, at: testTime)
    guard
        case .refused(let tabID, let reason) =
            container.select(.tab("personal-center"), source: .url, isLoggedIn: false, at: testTime)
    else {
        Issue.record("the model should ask for a login")
        return
    }
    let html = stageHTML(
        app, layout: .vertical, container: container, content: .refused(tabID: tabID, reason: reason),
        language: .traditionalChinese)
    #expect(html.contains("<html lang=\"zh-Hant\">"))
    #expect(html.contains("data-tab=\"discover\" href=\"/vertical/vertical/discover\" aria-current=\"page\""))
    #expect(!html.contains("data-tab=\"personal-center\" href=\"/vertical/vertical/personal-center\" aria-current"))
    #expect(html.contains("請先登入以查看個人中心"))
    #expect(html.contains("<form method=\"post\" class=\"login-form\" action=\"/login\">"))
    #expect(html.contains("<input type=\"hidden\" name=\"next\" value=\"/vertical/vertical/personal-center\">"))
}

@Test func moreThanFiveTabsInTheBottomBarGiveFourAndMore() {
    let app = manyTabApp(7)
    var container = TabContainer(app: app)
    _ = container.select(.tab("t6"), source: .url, isLoggedIn: false, at: testTime)
    let bottom = stageHTML(app, layout: .bottom, container: container, content: .tab(id: "t6"))
    #expect(bottom.components(separatedBy: "<li><a class=\"tab\"").count == 6)
    #expect(bottom.contains("data-tab=\"_more\" href=\"/many/bottom/_more\" aria-current=\"page\""))
    #expect(!bottom.contains("data-tab=\"t5\""))
    let vertical = stageHTML(app, layout: .vertical, container: container, content: .tab(id: "t6"))
    #expect(vertical.components(separatedBy: "<li><a class=\"tab\"").count == 8)
    let more = stageHTML(app, layout: .bottom, container: container, content: .more)
    #expect(
        more.contains("<li><a class=\"more-row\" data-tab=\"t5\" href=\"/many/bottom/t5\"><span class=\"more-icon\">"))
    // The selected tab's row is marked.
    #expect(more.contains("<li><a class=\"more-row\" data-tab=\"t6\" href=\"/many/bottom/t6\" aria-current=\"page\">"))
    #expect(
        more.contains(
            "<span class=\"more-title\">Tab 7</span><span class=\"chevron\" aria-hidden=\"true\"></span></a></li>"))
}

@Test func untrustedTextIsEscapedEverywhere() throws {
    let app = try demo("restaurant")
    var container = TabContainer(app: app)
    _ = container.select(.tab("finding"), source: .url, isLoggedIn: false, at: testTime)
    _ = container.perform(.setQuery("<b>\"x\"</b>"), onTab: "finding", isLoggedIn: false, at: testTime)
    let html = stageHTML(app, layout: .bottom, container: container, content: .tab(id: "finding"))
    #expect(html.contains("value=\"&lt;b&gt;&quot;x&quot;&lt;/b&gt;\""))
    #expect(!html.contains("<b>"))
    let json = String(decoding: EventLogPage.json(app: app, log: container.log), as: UTF8.self)
    #expect(json.contains("setQuery(\\\"\\u003cb>\\\"x\\\"\\u003c/b>\\\")"))
    #expect(!json.contains("<b>"))
}

@Test func theEventLogListsEveryEventWithItsTime() throws {
    let app = try demo("restaurant")
    var container = TabContainer(app: app)
    _ = container.select(.tab("home"), source: .url, isLoggedIn: false, at: testTime, in: .vertical)
    container.replaceTabs(with: app, isLoggedIn: false, at: testTime)
    let html = String(
        decoding: EventLogPage.document(
            app: app, log: container.log, chrome: ChromeContext(language: .english, app: app)), as: UTF8.self)
    #expect(
        html.contains(
            "<tr><td>1</td><td><time datetime=\"2026-01-01T00:00:00Z\">00:00:00</time></td><td>vertical</td>"
                + "<td>Home</td><td>guard home (url) → allowed</td></tr>"))
    #expect(html.contains("<th scope=\"col\">Layout</th>"))
    // Issue 28: the time's zone is said, each tab's row names it by title, the log can be saved.
    #expect(html.contains("<th scope=\"col\">Time (UTC)</th><th scope=\"col\">Layout</th><th scope=\"col\">Tab</th>"))
    #expect(html.contains("<a href=\"/restaurant/events.json?download=1\" download>Download (JSON)</a>"))
    let json = String(decoding: EventLogPage.json(app: app, log: container.log), as: UTF8.self)
    #expect(json.hasPrefix("{\n  \"app\": \"restaurant\",\n  \"dropped\": 0,\n  \"events\": [\n    {\"sequence\": 1,"))
    #expect(
        json.contains(
            "\"layout\": \"vertical\", \"event\": \"guard home (url) → allowed\", \"kind\": \"guardChecked\","
                + " \"tab\": \"home\", \"source\": \"url\", \"allowed\": true}"))
    #expect(
        json.contains(
            "\"layout\": null, \"event\": \"tabs replaced: 5 tabs, selected home\", \"kind\": \"tabsReplaced\"}"))
    let empty = String(decoding: EventLogPage.json(app: app, log: nil), as: UTF8.self)
    #expect(empty == "{\n  \"app\": \"restaurant\",\n  \"dropped\": 0,\n  \"events\": []\n}\n")
}

@Test func aRefusedTabIsASheetOverTheSelectedPage() throws {
    let app = try demo("vertical")
    var container = TabContainer(app: app)
    _ = container.select(.tab("discover"), source: .url, isLoggedIn: false, at: testTime)
    guard
        case .refused(let tabID, let reason) =
            container.select(.tab("personal-center"), source: .url, isLoggedIn: false, at: testTime)
    else {
        Issue.record("the model should ask for a login")
        return
    }
    let html = stageHTML(
        app, layout: .vertical, container: container, content: .refused(tabID: tabID, reason: reason))
    #expect(html.contains("<h1 id=\"page-title\">Discover</h1>\n<form method=\"get\" role=\"search\""))
    #expect(
        html.contains(
            "</section>\n<dialog id=\"login-sheet\" class=\"login-sheet\" open aria-labelledby=\"login-sheet-title\" data-tab=\"personal-center\">\n<h2 id=\"login-sheet-title\">Log in required</h2>\n"
        ))
    #expect(
        html.contains("<a class=\"sheet-close\" href=\"/vertical/vertical/discover\">Cancel</a>\n</dialog>\n</main>"))
}

@Test func aLoginOnlyTabCarriesALockWithItsName() throws {
    let app = try demo("vertical")
    let html = stageHTML(app, layout: .vertical, container: TabContainer(app: app), content: .tab(id: "inbox"))
    let cell = try #require(
        html.components(separatedBy: "<li>").first { $0.contains("data-tab=\"personal-center\"") })
    #expect(cell.contains("<span class=\"tab-title\">Personal Center</span><svg class=\"lock\""))
    #expect(cell.contains("<span class=\"visually-hidden\"> (requires login)</span></a>"))
    #expect(html.components(separatedBy: "class=\"lock\"").count == 2)
}

@Test func settingsTogglesAreSwitchesAndChecklistItemsCheckboxesNamedByTheirTitles() throws {
    let app = try demo("vertical")
    var container = TabContainer(app: app)
    _ = container.select(.tab("settings"), source: .url, isLoggedIn: false, at: testTime)
    let settings = stageHTML(app, layout: .vertical, container: container, content: .tab(id: "settings"))
    #expect(settings.contains("<ul class=\"items toggles\">"))
    #expect(
        settings.contains(
            "class=\"toggle toggle-switch\" role=\"switch\" aria-checked=\"true\"><span class=\"toggle-control\">"))
    #expect(!settings.contains("aria-pressed"))
    _ = container.select(.tab("favorites"), source: .url, isLoggedIn: false, at: testTime)
    let checklist = stageHTML(app, layout: .vertical, container: container, content: .tab(id: "favorites"))
    #expect(
        checklist.contains(
            "<li id=\"item-park\"><span class=\"toggle-title\" id=\"toggle-favorites-park\"><a class=\"item-link\""))
    #expect(checklist.contains("<form method=\"post\" action=\"/vertical/vertical/favorites/action#item-park\""))
    #expect(
        checklist.contains(
            "<button type=\"submit\" aria-labelledby=\"toggle-favorites-park\" class=\"toggle toggle-checkbox\" role=\"checkbox\" aria-checked=\"false\"><span class=\"toggle-control\"></span></button></form></li>"
        ))
}

@Test func everyPageLinksTheToolsIcon() throws {
    let app = try demo("restaurant")
    let html = stageHTML(app, layout: .bottom, container: TabContainer(app: app), content: .tab(id: "home"))
    #expect(html.contains("<link rel=\"icon\" type=\"image/svg+xml\" href=\"/static/images/favicon.svg\">\n"))
}

@Test func aCountBadgeIsHeardWithWhatItCountsAndATextBadgeInTheVisitorsLanguage() throws {
    var app = manyTabApp(3)
    app.tabs[0].initialBadge = .count(4)
    app.tabs[0].badgeLabel = LocalizedText(en: "queued", zhHant: "筆待付")
    app.tabs[1].initialBadge = .count(2)
    app.tabs[2].initialBadge = .text(LocalizedText(en: "New", zhHant: "新"))
    let container = TabContainer(app: app)
    for markup in [nil, AppMarkup(app: app)] {
        func page(_ language: PageLanguage) -> String {
            let context = StageContext(
                chrome: ChromeContext(language: language, app: app, layout: .vertical), app: app, layout: .vertical,
                container: container, content: .tab(id: "t1"), markup: markup)
            return String(decoding: StagePage.document(context), as: UTF8.self)
        }
        let english = page(.english)
        #expect(english.contains("<span class=\"badge\">4<span class=\"badge-words\"> queued</span></span>"))
        // A count that says nothing of what it counts is the number alone: "unread" is the news page's.
        #expect(english.contains("<span class=\"badge\">2</span>"))
        #expect(english.contains("<span class=\"badge\">New</span>"))
        let chinese = page(.traditionalChinese)
        #expect(chinese.contains("<span class=\"badge\">新</span>"))
        #expect(chinese.contains("<span class=\"badge-words\"> 筆待付</span>"))
    }
}

@Test func aTintedAppLinksTheTintedPictureOfItsSelectedTab() throws {
    var app = try demo("restaurant")
    app.iconStyle = .tinted
    var container = TabContainer(app: app)
    _ = container.select(.tab("wallet"), source: .url, isLoggedIn: false, at: testTime)
    let html = stageHTML(app, layout: .bottom, container: container, content: .tab(id: "wallet"))
    #expect(html.contains("src=\"/icons/wallet/tinted@1x.png?tint=FF9500&v=\(BuiltInIcon.wallet.artVersion)\""))
    #expect(!html.contains("/selected@"))
    #expect(html.contains("/icons/home/unselected@1x.png"))
    let markup = AppMarkup(app: app)
    let context = StageContext(
        chrome: ChromeContext(language: .english, app: app, layout: .bottom), app: app, layout: .bottom,
        container: container, content: .tab(id: "wallet"), markup: markup)
    #expect(String(decoding: StagePage.document(context), as: UTF8.self) == html)
}

@Test func theIconGalleryShowsEachLoadedAppsOwnIcons() throws {
    var bank = manyTabApp(2)
    bank.iconStyle = .tinted
    bank.tabs[1].icon = .path(data: "M4 4h16v16H4z", fillRule: .evenodd)
    let html = String(
        decoding: IconGalleryPage.document(
            names: ["home"], tint: "FF9500", apps: [bank], chrome: ChromeContext(language: .english)), as: UTF8.self)
    // The gallery's URLs are texts in attributes, escaped: `&amp;`.
    #expect(html.contains("src=\"/icons/home/tinted@2x.png?tint=FF9500&amp;v=\(BuiltInIcon.home.artVersion)\""))
    #expect(html.contains("src=\"/icons/home/selected@3x.png?tint=FF9500&amp;v=\(BuiltInIcon.home.artVersion)\""))
    #expect(html.contains("<h2>Many</h2>"))
    #expect(html.contains("<th scope=\"row\">Tab 2</th>"))
    let version = bank.iconVersion(of: "t2")
    #expect(version.count == 8)
    #expect(html.contains("src=\"/icons/apps/many/t2/tinted@1x.png?v=\(version)\""))
    #expect(html.contains("src=\"/icons/apps/many/t2/unselected@3x.png?v=\(version)\""))
    #expect(html.contains("src=\"/icons/star/tinted@1x.png?tint=00AA11&amp;v=\(BuiltInIcon.star.artVersion)\""))
}

@Test func theEventLogShowsTheNewestFirstAndFiltersByKind() throws {
    let app = try demo("restaurant")
    var container = TabContainer(app: app)
    _ = container.select(.tab("home"), source: .url, isLoggedIn: false, at: testTime, in: .bottom)
    _ = container.select(
        .tab("news"), source: .tap, isLoggedIn: false, at: testTime.addingTimeInterval(3_725), in: .bottom)
    func page(_ category: EventCategory?) -> String {
        String(
            decoding: EventLogPage.document(
                app: app, log: container.log, category: category, chrome: ChromeContext(language: .english, app: app)),
            as: UTF8.self)
    }
    let all = page(nil)
    let rows = all.components(separatedBy: "<tr><td>").dropFirst().map { $0.prefix { $0 != "<" } }
    let sequences = container.log.events.map { String($0.sequence) }
    #expect(rows == sequences.reversed().map { Substring($0) })
    #expect(all.contains("<time datetime=\"2026-01-01T01:02:05Z\">01:02:05</time>"))
    #expect(all.contains("<a href=\"/restaurant/events\" aria-current=\"page\">All</a>"))
    #expect(all.contains("<a class=\"button button-quiet\" href=\"/restaurant/reset\">Reset demo…</a>"))
    let selection = page(.selection)
    #expect(selection.contains("<a href=\"/restaurant/events?kind=selection\" aria-current=\"page\">Selection</a>"))
    #expect(selection.contains("guard news (tap) → allowed"))
    #expect(!selection.contains("viewDidAppear"))
    let lifecycle = page(.lifecycle)
    #expect(lifecycle.contains("news viewDidAppear"))
    #expect(!lifecycle.contains("guard news"))
    #expect(page(.page).contains("No events of this kind yet."))
}

@Test func aChineseEventLogMarksItsEnglishSentencesAsEnglish() throws {
    let app = try demo("restaurant")
    var container = TabContainer(app: app)
    _ = container.select(.tab("home"), source: .url, isLoggedIn: false, at: testTime, in: .bottom)
    _ = container.select(.tab("news"), source: .tap, isLoggedIn: false, at: testTime, in: .bottom)
    func page(_ language: PageLanguage) -> String {
        String(
            decoding: EventLogPage.document(
                app: app, log: container.log, chrome: ChromeContext(language: language, app: app)),
            as: UTF8.self)
    }
    let chinese = page(.traditionalChinese)
    #expect(chinese.contains("<td><span lang=\"en\">guard news (tap) → allowed</span></td>"))
    let sentences = chinese.components(separatedBy: "<td><span lang=\"en\">").count - 1
    #expect(sentences == container.log.events.count, "every sentence is marked")
    let english = page(.english)
    #expect(english.contains("<td>guard news (tap) → allowed</td>"), "an English page needs no marking")
    #expect(!english.contains("<span lang=\"en\">"))
    let timeline = String(
        decoding: ShowcasePage.document(
            app: app, log: container.log, chrome: ChromeContext(language: .traditionalChinese, app: app)),
        as: UTF8.self)
    #expect(timeline.contains("><span lang=\"en\">guard news (tap) → allowed</span></li>"))
}
