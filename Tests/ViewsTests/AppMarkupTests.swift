import Foundation
import TabModel
import Testing

@testable import Views

/// Pages written with an app's markup must be byte for byte the pages written without it.
struct AppMarkupTests {
    /// An app whose every text needs escaping, with one tab hidden behind More in the bottom bar.
    static let awkwardApp: AppDescription = {
        let tabs = (1...6).map { index in
            TabDescription(
                id: "t\(index)", title: LocalizedText(en: "A&B <\(index)> \"q\" 'x'", zhHant: "甲&乙 <\(index)>"),
                icon: index == 2 ? .path(data: "M2 2H22V22H2Z", fillRule: .evenodd) : .builtIn(.bell),
                requiresLogin: index == 3,
                initialBadge: index == 1 ? .count(120) : index == 4 ? .text(LocalizedText(["en": "n<ew>"])) : nil,
                page: PageDescription(
                    heading: index == 5 ? LocalizedText(en: "Heading & <more>", zhHant: "標題 & <更多>") : nil,
                    content: .counter(CounterPage(label: LocalizedText(en: "Count", zhHant: "計數")))))
        }
        return AppDescription(
            id: "awkward", name: LocalizedText(en: "Tom & \"Jerry\"", zhHant: "湯姆 & 傑利"), tint: "#a1b2c3",
            defaultLayout: .bottom, policies: .seed004, tabs: tabs)
    }()

    /// An app in French and British English, French first: no language of TabStage's own.
    static let frenchApp: AppDescription = {
        let json = #"""
            {"id": "cafe", "name": {"fr": "Café", "en-GB": "Café"}, "languages": ["fr", "en-GB"], "tint": "#6F4E37",
             "tabs": [
               {"id": "menu", "title": {"fr": "Carte", "en-GB": "Menu"}, "icon": "home", "badge": "Neuf",
                "page": {"kind": "counter", "label": {"fr": "Tasses", "en-GB": "Cups"}}},
               {"id": "compte", "title": {"fr": "Compte", "en-GB": "Account"}, "icon": "person", "requiresLogin": true,
                "page": {"kind": "profile", "heading": {"fr": "Bonjour", "en-GB": "Hello"}}}
             ]}
            """#
        return try! AppDescription.load(jsonText: json).get()
    }()

    static var apps: [AppDescription] { BuiltInApps.all + [awkwardApp, frenchApp] }

    /// Every view a visitor of `app` can reach: each tab selected, More, a refusal; logged in
    /// and out; with and without a notice; each appearance in turn; with the offer to present
    /// and without it.
    static func contexts(of app: AppDescription, layout: Layout, language: PageLanguage) -> [StageContext] {
        var contents: [(StageContent, selecting: String?)] = app.tabs.map { (.tab(id: $0.id), $0.id) }
        contents.append((.more, nil))
        contents.append(
            (.refused(tabID: app.tabs[app.tabs.count - 1].id, reason: .needsLogin), nil))
        var contexts: [StageContext] = []
        for (content, selecting) in contents {
            for visitor in [nil, "Ann & <Bo>"] {
                var container = TabContainer(app: app)
                if let selecting {
                    _ = container.select(.tab(selecting), source: .tap, isLoggedIn: visitor != nil, at: testTime)
                    // A badge the container changed (a news item read) is not the markup's.
                    if visitor != nil, let item = app.tab(id: selecting)?.page.content.items.first,
                        app.tab(id: selecting)?.page.kind == .news
                    {
                        _ = container.perform(
                            .markRead(itemID: item.id), onTab: selecting, isLoggedIn: true, at: testTime)
                    }
                }
                let appearance = Appearance.allCases[contexts.count % Appearance.allCases.count]
                let chrome = ChromeContext(
                    language: language, app: app, layout: layout, visitorName: visitor,
                    currentPath: "/\(app.id)/\(layout.rawValue)/x?y=1&z", csrfToken: visitor == nil ? nil : "tok\"en",
                    display: DisplaySettings(appearance: appearance))
                let notice =
                    visitor == nil ? nil : Notice(text: LocalizedText(en: "Saved <ok>", zhHant: "好"), isError: false)
                let live =
                    visitor == nil ? nil : LiveStage(version: LiveVersion(revision: 3, generation: 1), role: .visitor)
                contexts.append(
                    StageContext(
                        chrome: chrome, app: app, layout: layout, container: container, content: content,
                        notice: notice,
                        live: live))
            }
        }
        return contexts
    }

    func page(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }

    @Test(arguments: apps.map(\.id))
    func markupWritesTheSameBytes(appID: String) throws {
        let app = try #require(Self.apps.first { $0.id == appID })
        let markup = AppMarkup(app: app)
        var compared = 0
        var changedBadges = 0
        for layout in Layout.allCases {
            for language in app.languages.map({ PageLanguage(tag: $0) }) {
                for plain in Self.contexts(of: app, layout: layout, language: language) {
                    changedBadges += plain.app.tabs.indices.count { !plain.container.showsStartingBadge(at: $0) }
                    var withMarkup = plain
                    withMarkup.markup = markup
                    #expect(withMarkup.markup != nil)
                    // As text: a failure then shows where the two differ.
                    #expect(page(StagePage.document(withMarkup)) == page(StagePage.document(plain)))
                    #expect(page(StagePage.fragment(withMarkup)) == page(StagePage.fragment(plain)))
                    compared += 1
                }
            }
        }
        #expect(compared == Layout.allCases.count * app.languages.count * (app.tabs.count + 2) * 2)
        if app.id == BuiltInApps.restaurantID {
            #expect(changedBadges > 0, "some contexts show a badge the container changed")
        }
    }

    @Test func markupIsUsedOnlyForItsOwnApp() throws {
        let restaurant = try demo(BuiltInApps.restaurantID)
        let other = AppMarkup(app: Self.awkwardApp)
        let chrome = ChromeContext(language: .english, app: restaurant, layout: .bottom)
        var context = StageContext(
            chrome: chrome, app: restaurant, layout: .bottom, container: TabContainer(app: restaurant),
            content: .tab(id: restaurant.tabs[0].id), markup: other)
        #expect(context.markup == nil)
        context.markup = other
        #expect(context.markup == nil)
        context.markup = AppMarkup(app: restaurant)
        #expect(context.markup != nil)
        // A language the app is not written in has no markup.
        context.chrome.language = PageLanguage(tag: "fr")
        #expect(context.markup == nil)
        context.chrome.language = .english
        context.markup = AppMarkup(app: restaurant)
        #expect(context.markup != nil)
        // A changed app drops the markup written from the app as it was.
        context.app.tabs[0].title = LocalizedText(en: "Renamed", zhHant: "改名")
        #expect(context.markup == nil)
        let page = String(decoding: StagePage.document(context), as: UTF8.self)
        #expect(page.contains("<span class=\"tab-title\">Renamed</span>"))
    }

    @Test func escapedTextsStayEscaped() throws {
        let app = Self.awkwardApp
        var context = Self.contexts(of: app, layout: .bottom, language: .english)[0]
        context.markup = AppMarkup(app: app)
        let page = String(decoding: StagePage.document(context), as: UTF8.self)
        #expect(
            page.contains(
                "<title>A&amp;B &lt;1&gt; &quot;q&quot; &#39;x&#39; – Tom &amp; &quot;Jerry&quot; · TabStage</title>"))
        #expect(page.contains("<span class=\"tab-title\">A&amp;B &lt;2&gt; &quot;q&quot; &#39;x&#39;</span>"))
        #expect(!page.contains("<2>"))
    }
}
