import Foundation
import TabModel
import Testing

@testable import TabStageApp

/// Pages of apps in languages other than the demos' two: each page is in one of its app's
/// languages, and offers those alone.
@Suite struct AppLanguageRouteTests {
    static func load(_ json: String) throws -> AppDescription { try AppDescription.load(jsonText: json).get() }

    /// English alone.
    static let pulse = """
        {"id": "pulse", "name": {"en": "Pulse"}, "languages": ["en"], "tint": "#C2185B",
         "tabs": [
           {"id": "today", "title": {"en": "Today"}, "icon": "home", "page": {"kind": "text"}},
           {"id": "you", "title": {"en": "You"}, "icon": "person", "page": {"kind": "profile"}}
         ]}
        """

    /// French first, then British English.
    static let cafe = """
        {"id": "cafe", "name": {"fr": "Café", "en-GB": "Cafe"}, "languages": ["fr", "en-GB"], "tint": "#6F4E37",
         "tabs": [
           {"id": "carte", "title": {"fr": "Carte", "en-GB": "Menu"}, "icon": "home", "page": {"kind": "text"}},
           {"id": "compte", "title": {"fr": "Compte", "en-GB": "Account"}, "icon": "person", "requiresLogin": true,
            "page": {"kind": "profile"}}
         ]}
        """

    static func stage() throws -> StageServer {
        try StageServer(application: .deterministic(apps: BuiltInApps.all + [load(pulse), load(cafe)]))
    }

    static func htmlLanguage(_ page: String) -> String? {
        page.firstMatch(of: /<html lang="([^"]*)"/).map { String($0.output.1) }
    }

    static func switchLanguages(_ page: String) -> [String] {
        page.matches(of: /hreflang="([^"]*)"/).map { String($0.output.1) }
    }

    @Test func anEnglishOnlyAppIsInEnglishWithNoLanguageSwitchWhateverTheBrowserAsks() throws {
        let stage = try Self.stage()
        let visitor = stage.visitor(language: "zh-TW")
        for path in ["/pulse/bottom/today", "/pulse/vertical/today?lang=zh-Hant", "/pulse/stage", "/pulse/events"] {
            let page = try visitor.get(path).text
            #expect(Self.htmlLanguage(page) == "en", "\(path)")
            #expect(Self.switchLanguages(page) == [], "\(path) offers no language switch")
        }
        // Its `?lang=zh-Hant` was not the app's: the demos still follow the browser.
        #expect(Self.htmlLanguage(try visitor.get("/restaurant/bottom/home").text) == "zh-Hant")
    }

    @Test func anAppsSwitchOffersItsLanguagesInItsOrderEachNamedInItself() throws {
        let page = try Self.stage().visitor(language: "en-US").get("/cafe/bottom/carte").text
        #expect(Self.switchLanguages(page) == ["fr", "en-GB"])
        #expect(page.contains(#"lang="fr">Français</a>"#))
        #expect(page.contains(#"lang="en-GB" aria-current="true">English (GB)</a>"#))
    }

    @Test func acceptLanguagePicksAmongTheAppsLanguagesElseItsFirst() throws {
        let stage = try Self.stage()
        let english = try stage.visitor(language: "en-US,en;q=0.9").get("/cafe/bottom/carte").text
        #expect(Self.htmlLanguage(english) == "en-GB")
        #expect(english.contains("<span class=\"tab-title\">Menu</span>"))
        let german = try stage.visitor(language: "de").get("/cafe/bottom/carte").text
        #expect(Self.htmlLanguage(german) == "fr")
        #expect(german.contains("<span class=\"tab-title\">Carte</span>"))
        // TabStage's own labels fall back to English, and say so.
        #expect(german.contains("<header class=\"stage-header\" lang=\"en\">"))
        #expect(german.contains("<span class=\"app-name\" lang=\"fr\">Café</span>"))
    }

    @Test func aLanguageChosenOnOneAppIsKeptWhereTheAppHasIt() throws {
        let stage = try Self.stage()
        let visitor = stage.visitor(language: "en")
        #expect(Self.htmlLanguage(try visitor.get("/cafe/bottom/carte?lang=FR").text) == "fr")
        #expect(Self.htmlLanguage(try visitor.get("/cafe/vertical/carte").text) == "fr")
        // The demos have no French: the browser's language decides there.
        #expect(Self.htmlLanguage(try visitor.get("/restaurant/bottom/home").text) == "en")
        #expect(try visitor.get("/cafe?lang=en-gb").header("Location") == "/cafe/bottom?lang=en-GB")
    }

    @Test func aPageAboutSeveralAppsShowsEachInItsOwnLanguageWhenItLacksThePages() throws {
        let home = try Self.stage().visitor(language: "en").get("/").text
        #expect(Self.htmlLanguage(home) == "en")
        #expect(home.contains("<h2 lang=\"fr\">Café</h2>"))
        #expect(home.contains("<h2>Pulse</h2>"))
        #expect(Self.switchLanguages(home) == ["en", "zh-Hant"], "TabStage's own languages")
    }

    @Test func aRefusalNoticeIsInThePagesLanguage() throws {
        let stage = try Self.stage()
        let visitor = stage.visitor(language: "fr")
        _ = try visitor.get("/cafe/bottom/carte")
        let refused = try visitor.get("/cafe/bottom/compte")
        #expect(refused.status == 403)
        #expect(refused.text.contains("Log in to see Compte"))
    }

    @Test func aFollowerSeesTheAppsLanguagesOnly() throws {
        let stage = try Self.stage()
        let presenter = stage.visitor(language: "fr")
        _ = try presenter.get("/cafe/bottom/carte?lang=en-GB")
        _ = try presenter.post("/cafe/present", form: [("layout", "bottom")])
        let presented = try presenter.get("/cafe/bottom/carte").text
        let path = try #require(presented.firstMatch(of: /\/cafe\/follow\/[0-9a-f]+/).map { String($0.output) })
        // The presenter's choice, not the follower's browser (the demos' zh-Hant is not the app's).
        let follower = stage.visitor(language: "zh-TW")
        let page = try follower.get(path).text
        #expect(Self.htmlLanguage(page) == "en-GB")
        #expect(Self.switchLanguages(page) == ["fr", "en-GB"])
        #expect(Self.htmlLanguage(try follower.get(path + "?lang=zh-Hant").text) == "en-GB")
        #expect(Self.htmlLanguage(try follower.get(path + "?lang=fr").text) == "fr")
    }
}
