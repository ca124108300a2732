import Testing

@testable import TabModel

/// An app of two tabs whose texts are written by `text` (a JSON object of texts by language for
/// the given English word), with `top` added after the app's id.
private func app(top: String = "", name: String = #"{"en": "Pulse"}"#, text: (String) -> String) -> String {
    """
    {"id": "pulse",\(top) "name": \(name), "tint": "#C2185B",
     "tabs": [
       {"id": "today", "title": \(text("Today")), "icon": "home", "page": {"kind": "text"}},
       {"id": "news", "title": \(text("News")), "icon": "news",
        "page": {"kind": "news", "items": [{"id": "a", "title": \(text("A")), "body": \(text("B"))}]}}
     ]}
    """
}

private func english(_ word: String) -> String { #"{"en": "\#(word)"}"# }

private func problems(_ json: String) -> [String] {
    switch AppDescription.load(jsonText: json) {
    case .success: return []
    case .failure(let report): return report.problems.map(\.description)
    }
}

@Suite struct LanguageRuleTests {
    @Test func anEnglishOnlyAppLoadsAndHasEnglishAlone() throws {
        let declared = try AppDescription.load(jsonText: app(top: #" "languages": ["en"],"#, text: english)).get()
        #expect(declared.languages == ["en"])
        // Without `languages`, an app is in the languages of its name.
        let named = try AppDescription.load(jsonText: app(text: english)).get()
        #expect(named.languages == ["en"])
        #expect(named.defaultLanguage == "en")
    }

    @Test func theLanguagesAreInTheOrderDeclaredAndTheFirstIsTheDefault() throws {
        let json = app(
            top: #" "languages": ["fr", "en"],"#, name: #"{"en": "Pulse", "fr": "Pouls"}"#,
            text: { #"{"en": "\#($0)", "fr": "\#($0) (fr)"}"# })
        let loaded = try AppDescription.load(jsonText: json).get()
        #expect(loaded.languages == ["fr", "en"])
        #expect(loaded.defaultLanguage == "fr")
    }

    @Test func withoutLanguagesTheNameSaysThemInItsOrder() throws {
        let json = app(name: #"{"zh-Hant": "脈搏", "en": "Pulse"}"#, text: { #"{"en": "\#($0)", "zh-Hant": "字"}"# })
        #expect(try AppDescription.load(jsonText: json).get().languages == ["zh-Hant", "en"])
    }

    @Test func aTextMissingADeclaredLanguageIsALocatedProblem() {
        let json = app(top: #" "languages": ["en", "fr"],"#, name: #"{"en": "Pulse", "fr": "Pouls"}"#) { word in
            word == "News" ? english(word) : #"{"en": "\#(word)", "fr": "\#(word)"}"#
        }
        #expect(problems(json) == ["4:28: tabs[1] 'news'.title: missing 'fr'"])
    }

    @Test func aTextInALanguageTheAppDoesNotDeclareIsALocatedProblem() {
        let json = app(top: #" "languages": ["en"],"#) { word in
            word == "Today" ? #"{"en": "Today", "zh-Hant": "今天"}"# : english(word)
        }
        #expect(
            problems(json) == [
                "3:56: tabs[0] 'today'.title.zh-Hant: 'zh-Hant' is not one of the app's languages (en); "
                    + "add it to \"languages\" or remove this text"
            ])
    }

    @Test func withoutLanguagesAnUndeclaredTextSaysWhereTheLanguagesCameFrom() {
        let json = app { word in word == "B" ? #"{"en": "B", "de": "B"}"# : english(word) }
        #expect(
            problems(json) == [
                "5:100: tabs[1] 'news'.page.items[0].body.de: 'de' is not one of the app's languages (en, "
                    + "those of \"name\"); declare \"languages\" to add it, or remove this text"
            ])
    }

    @Test func aTagThatDiffersOnlyInCaseIsNamedAsDeclared() {
        let json = app(
            top: #" "languages": ["en", "zh-Hant"],"#, name: #"{"en": "Pulse", "zh-Hant": "脈搏"}"#,
            text: { #"{"en": "\#($0)", "zh-hant": "字"}"# })
        #expect(
            problems(json).first
                == "3:56: tabs[0] 'today'.title.zh-hant: 'zh-hant' is not one of the app's languages (en, zh-Hant); "
                + "did you mean 'zh-Hant'?")
    }

    @Test func theLanguagesListIsChecked() {
        #expect(
            problems(app(top: #" "languages": [],"#, text: english)) == [
                "1:30: languages: empty; an app has 1 to 8 languages, such as [\"en\"]"
            ])
        #expect(
            problems(app(top: #" "languages": "en","#, text: english)) == [
                "1:30: languages: expected an array of language tags such as [\"en\", \"zh-Hant\"], found a string"
            ])
        #expect(
            problems(app(top: #" "languages": ["en", "english", "en"],"#, text: english)) == [
                "1:37: languages[1]: 'english' is not a language tag such as en, fr or zh-Hant",
                "1:48: languages[2]: 'en' is listed twice; languages[0] has it already",
            ])
    }

    @Test func aNameInNoLanguageSaysSo() {
        #expect(
            problems(app(name: "{}", text: english)) == [
                "1:25: name: no text; write the name in each of the app's languages, such as {\"en\": \"My App\"}"
            ])
    }

    @Test func aPlainTextBadgeIsTheSameInEachOfTheAppsLanguages() throws {
        let json = app(top: #" "languages": ["fr"],"#, name: #"{"fr": "Pouls"}"#) { #"{"fr": "\#($0)"}"# }
            .replacing(#""icon": "home","#, with: #""icon": "home", "badge": "Neuf","#)
        let loaded = try AppDescription.load(jsonText: json).get()
        #expect(loaded.tabs[0].initialBadge == .text(LocalizedText(["fr": "Neuf"])))
    }

    @Test func theDemosDeclareEnglishAndTraditionalChinese() {
        #expect(BuiltInApps.all.map(\.languages) == [["en", "zh-Hant"], ["en", "zh-Hant"]])
    }
}
