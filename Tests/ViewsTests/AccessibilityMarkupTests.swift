import TabModel
import Testing

@testable import Views

/// Issue 19's markup: what a screen reader is given to read.
@Suite struct AccessibilityMarkupTests {
    /// A bar with a news tab, a counter whose badge is bound to its count, a tab with a fixed
    /// count and one with a text badge.
    private static func badgedApp() -> AppDescription {
        func tab(
            _ id: String, badge: Badge? = nil, binding: BadgeBinding? = nil, _ content: PageContent
        ) -> TabDescription {
            TabDescription(
                id: id, title: text(id.capitalized), icon: .builtIn(.star), initialBadge: badge, badgeBinding: binding,
                page: PageDescription(content: content))
        }
        let story = PageItem(id: "one", title: text("One"))
        return AppDescription(
            id: "badged", name: text("Badged"), tint: "#00aa11", defaultLayout: .vertical, policies: .uiKit,
            tabs: [
                tab("news", .news(items: [story])),
                tab("cart", binding: .count, .counter(CounterPage(label: text("Items"), start: 2))),
                tab("pay", badge: .count(3), .text),
                tab("deals", badge: .text(LocalizedText(["en": "New"])), .text),
            ])
    }

    @Test func aBadgeIsSeparatedFromItsTitleAndSaysWhatItCounts() {
        let app = Self.badgedApp()
        let container = TabContainer(app: app)
        let html = stageHTML(app, layout: .vertical, container: container, content: .tab(id: "news"))
        let separator = "<span class=\"badge-words\">, </span></span>"
        #expect(html.contains("News" + separator + "<span class=\"badge\">1<span class=\"badge-words\"> unread</span>"))
        #expect(
            html.contains("Cart" + separator + "<span class=\"badge\"><span class=\"badge-words\">Items: </span>2<"))
        #expect(html.contains("Pay" + separator + "<span class=\"badge\">3</span></a>"))
        #expect(html.contains("Deals" + separator + "<span class=\"badge\">New</span></a>"))
    }
}

/// The bottom layout is read page first, as it is drawn; the vertical one bar first.
@Test func aBottomBarFollowsItsPageInTheDocumentAndAVerticalBarPrecedesIt() throws {
    let app = try demo("restaurant")
    let container = TabContainer(app: app)
    for (layout, barFirst) in [(Layout.bottom, false), (.vertical, true)] {
        let html = stageHTML(app, layout: layout, container: container, content: .tab(id: "home"))
        let bar = try #require(html.range(of: "<nav class=\"tab-bar"))
        let page = try #require(html.range(of: "<section id=\"page\""))
        #expect((bar.lowerBound < page.lowerBound) == barFirst, "\(layout)")
        let skip = try #require(html.range(of: "<a class=\"skip-link\" href=\"#stage\">Skip to the app</a>"))
        #expect(skip.upperBound < (try #require(html.range(of: "<header"))).lowerBound)
    }
}

/// A stage page has one live region, outside the stage the script swaps, and a notice is not one.
@Test func aStagePageHasOneLiveRegionOutsideTheStage() throws {
    let app = try demo("restaurant")
    let container = TabContainer(app: app)
    let context = StageContext(
        chrome: ChromeContext(language: .english, app: app, layout: .bottom), app: app, layout: .bottom,
        container: container, content: .tab(id: "home"),
        notice: Notice(text: text("Refused"), isError: true))
    let html = String(decoding: StagePage.document(context), as: UTF8.self)
    #expect(html.components(separatedBy: "role=\"").count == 2)
    #expect(html.contains("</main>\n<div id=\"announcer\" class=\"visually-hidden\" role=\"status\"></div>\n</body>"))
    #expect(html.contains("<p class=\"notice notice-error\">Refused</p>"))
    let fragment = String(decoding: StagePage.fragment(context), as: UTF8.self)
    #expect(!fragment.contains("announcer"))
}

/// A title the bar cuts is its link's tooltip; one that fits has none.
@Test func aTitleTheBarCutsIsItsLinksTooltip() {
    var app = manyTabApp(5)
    app.tabs[1].title = LocalizedText(en: "A title of 24 characters", zhHant: "二十四個字的分頁標題")
    let container = TabContainer(app: app)
    let html = stageHTML(app, layout: .bottom, container: container, content: .tab(id: "t1"))
    #expect(html.contains("data-tab=\"t2\" href=\"/many/bottom/t2\" title=\"A title of 24 characters\">"))
    #expect(html.contains("data-tab=\"t3\" href=\"/many/bottom/t3\"><img"))
    #expect(!TitleFit.fits("二十四個字的分頁標題", in: .bottom, tabCount: 5))
    #expect(TitleFit.fits("Tab 1", in: .bottom, tabCount: 5))
    #expect(TitleFit.fits("Notifications", in: .vertical, tabCount: 5) == false)
}

/// Chinese text takes full-width punctuation, and New Taiwan dollars read `NT$1,850`.
@Test func chinesePagesUseFullWidthPunctuationAndTaiwansAmounts() throws {
    let app = try demo("restaurant")
    var container = TabContainer(app: app)
    _ = container.select(.tab("wallet"), source: .url, isLoggedIn: false, at: testTime)
    let wallet = stageHTML(
        app, layout: .bottom, container: container, content: .tab(id: "wallet"), language: .traditionalChinese)
    #expect(wallet.contains("<p class=\"balance\" data-announce>NT$1,200</p>"))
    #expect(wallet.contains("<label>儲值金額（TWD） <input"))
    _ = container.select(.tab("news"), source: .url, isLoggedIn: false, at: testTime)
    let news = stageHTML(
        app, layout: .bottom, container: container, content: .tab(id: "news"), language: .traditionalChinese)
    #expect(news.contains("標為已讀<span class=\"visually-hidden\">："))
    #expect(!news.contains("<span class=\"visually-hidden\">: "))
}
