import Testing

@testable import TabModel

/// A valid description as JSON text; each test breaks one thing.
private func validJSON(tabs: String? = nil, top: String = "") -> String {
    let defaultTabs = """
        {"id": "home", "title": {"en": "Home", "zh-Hant": "主頁"}, "icon": "home", "page": {"kind": "text"}},
        {"id": "news", "title": {"en": "News", "zh-Hant": "消息"}, "icon": "news",
         "page": {"kind": "news", "items": [{"id": "a", "title": {"en": "A", "zh-Hant": "甲"}, "body": {"en": "B", "zh-Hant": "乙"}}]}}
        """
    return """
        {"id": "demo", "name": {"en": "Demo", "zh-Hant": "示範"}, "tint": "#FF9500", "layout": "bottom",\(top)
         "tabs": [\(tabs ?? defaultTabs)]}
        """
}

private func tab(
    _ id: String = "extra", icon: String = "\"star\"", page: String = "{\"kind\": \"text\"}", more: String = ""
)
    -> String
{
    "{\"id\": \"\(id)\", \"title\": {\"en\": \"T\", \"zh-Hant\": \"T\"}, \"icon\": \(icon), \"page\": \(page)\(more)}"
}

/// The problems of a description, as `path: message` lines.
private func problems(_ json: String) -> [String] {
    located(json).map { $0.path.isEmpty ? $0.message : "\($0.path): \($0.message)" }
}

/// The problems of a description, with their positions and tabs.
private func located(_ json: String, pathDataProblem: @escaping (String) -> String? = { _ in nil })
    -> [ValidationProblem]
{
    switch AppDescription.load(jsonText: json, pathDataProblem: pathDataProblem) {
    case .success: return []
    case .failure(let report): return report.problems
    }
}

private func withTabs(_ extra: String...) -> String {
    validJSON(tabs: ([tab("one"), tab("two")] + extra).joined(separator: ","))
}

@Suite struct ValidationTests {
    @Test func theBaselineIsValid() throws {
        let app = try AppDescription.load(jsonText: validJSON()).get()
        #expect(app.tabs.map(\.id) == ["home", "news"])
        #expect(app.policies == .uiKit)
        #expect(app.tintColor?.red == 0xFF)
    }

    @Test func invalidJSONGivesThePosition() {
        #expect(
            problems("{\n  \"id\": \"x\",\n  oops\n}") == [
                "not valid JSON: expected a key in quotes after the value of \"id\" and its ',', found 'o'"
            ])
        #expect(located("{\n  \"id\": \"x\",\n  oops\n}").map(\.position) == [SourcePosition(line: 3, column: 3)])
        #expect(
            located("{\"id\": \"x\"").map(\.description) == [
                "1:11: not valid JSON: expected ',' or '}' after the value of \"id\", found the end of the file"
            ])
        #expect(
            located("[1] 2").map(\.description) == [
                "1:5: not valid JSON: expected the end of the file after its value (a file holds one value), found '2'"
            ])
    }

    @Test func aDescriptionWithoutALayoutOpensBehindTheBottomBar() throws {
        let json = validJSON().replacing("\"layout\": \"bottom\",", with: "")
        #expect(!json.contains("layout"))
        let app = try AppDescription.load(jsonText: json).get()
        #expect(app.defaultLayout == .bottom)
    }

    @Test func unknownKeys() {
        #expect(
            problems(validJSON(top: " \"colour\": 1,")) == [
                "colour: unknown key; expected one of id, name, tint, layout, iconStyle, policies, hidesBottomBarWhenPushed, tabs, sections, customizable, showsDemos, textTint, languages"
            ])
        #expect(
            problems(withTabs(tab(more: ", \"hidden\": true"))) == [
                "tabs[2].hidden: unknown key; expected one of id, title, icon, requiresLogin, badge, badgeLabel, hidesBottomBarWhenPushed, allowsHiding, page"
            ])
    }

    /// A text is drawn into pages and written into export.swift: a control character would be
    /// written raw (a NUL, a line break inside a Swift string). Each is named, with its place.
    @Test(arguments: [
        (#"\u0000"#, "U+0000 (NUL)"), (#"\u007f"#, "U+007F (DEL)"), (#"\r"#, "U+000D (CR)"),
        (#"\n"#, "U+000A (LF)"), (#"\u000b"#, "U+000B (VT)"), (#"\t"#, "U+0009 (TAB)"),
        (#"\u0085"#, "U+0085"),
    ])
    func aTextWithAControlCharacterIsRefusedNamingIt(_ escaped: String, _ named: String) {
        let json = validJSON().replacing(#""en": "Home""#, with: #""en": "Ho"# + escaped + #"me""#)
        let found = located(json)
        #expect(
            found.map { "\($0.path): \($0.message)" } == [
                "tabs[0].title.en: control character \(named) at character 3; texts cannot hold control characters"
            ])
        #expect(found.first?.position?.line == 2)
    }

    @Test func duplicateKeys() {
        #expect(problems(validJSON(top: " \"id\": \"again\",")) == ["id: duplicate key"])
    }

    @Test func missingKeys() {
        #expect(
            problems(
                "{\"id\": \"x\", \"name\": {\"en\": \"X\", \"zh-Hant\": \"X\"}, \"layout\": \"bottom\", \"tabs\": [\(tab("a")), \(tab("b"))]}"
            ) == ["tint: missing required key 'tint'"])
        #expect(
            problems(
                withTabs(
                    "{\"id\": \"c\", \"title\": {\"en\": \"T\", \"zh-Hant\": \"T\"}, \"page\": {\"kind\": \"text\"}}"))
                == ["tabs[2].icon: missing required key 'icon'"])
        #expect(
            problems(withTabs(tab(page: "{}"))) == [
                "tabs[2].page.kind: missing required key 'kind'; expected one of text, counter, search, wallet, news, profile, checklist, settings, screen"
            ])
    }

    @Test func wrongTypes() {
        #expect(
            problems(withTabs(tab(more: ", \"requiresLogin\": \"yes\""))) == [
                "tabs[2].requiresLogin: expected a boolean, found a string"
            ])
        #expect(
            problems(validJSON(tabs: "\"home\", \"news\"")) == [
                "tabs[0]: expected an object, found a string", "tabs[1]: expected an object, found a string",
            ])
        #expect(
            problems(withTabs(tab(icon: "7"))) == [
                "tabs[2].icon: expected an icon name or an object with path data, found a number"
            ])
    }

    @Test func duplicateTabIDs() {
        #expect(problems(withTabs(tab("one"))) == ["tabs[2].id: duplicate tab id 'one'; tabs[0] has it already"])
    }

    @Test func badIDs() {
        #expect(
            problems(withTabs(tab("Big Tab"))) == [
                "tabs[2].id: 'Big Tab' is not a valid id; use 1 to 32 characters from a-z, 0-9 and '-' (ids appear in URLs)"
            ])
        #expect(problems(withTabs(tab(""))).first?.hasPrefix("tabs[2].id: '' is not a valid id") == true)
        #expect(problems(withTabs(tab(String(repeating: "a", count: 33)))).count == 1)
    }

    @Test func emptyAndOverLongTitles() {
        let empty =
            "{\"id\": \"c\", \"title\": {\"en\": \" \", \"zh-Hant\": \"T\"}, \"icon\": \"star\", \"page\": {\"kind\": \"text\"}}"
        #expect(problems(withTabs(empty)) == ["tabs[2].title.en: empty; a title needs 1 to 24 characters"])
        let long =
            "{\"id\": \"c\", \"title\": {\"en\": \"T\", \"zh-Hant\": \"\(String(repeating: "長", count: 25))\"}, \"icon\": \"star\", \"page\": {\"kind\": \"text\"}}"
        #expect(problems(withTabs(long)) == ["tabs[2].title.zh-Hant: too long (25 characters); a title has at most 24"])
    }

    @Test func badColour() {
        #expect(
            problems(validJSON().replacingFirst("#FF9500", with: "#FF95")) == [
                "tint: '#FF95' is not a colour; expected #RRGGBB, such as #FF9500"
            ])
        #expect(problems(validJSON().replacingFirst("#FF9500", with: "#GG9500")).count == 1)
    }

    @Test func missingLanguage() {
        let declared = validJSON(top: " \"languages\": [\"en\", \"zh-Hant\"],")
        #expect(
            problems(declared.replacingFirst("\"zh-Hant\": \"示範\"", with: "\"ja\": \"デモ\"")) == [
                "name: missing 'zh-Hant'",
                "name.ja: 'ja' is not one of the app's languages (en, zh-Hant); add it to \"languages\" or remove this text",
            ])
        // The missing text is reported at its object, which starts before its members.
        #expect(
            problems(declared.replacingFirst("\"zh-Hant\": \"示範\"", with: "\"Chinese!\": \"x\"")) == [
                "name: missing 'zh-Hant'",
                "name.Chinese!: 'Chinese!' is not a language tag such as en, fr or zh-Hant",
            ])
    }

    @Test func tooFewAndTooManyTabs() {
        #expect(problems(validJSON(tabs: tab("one"))) == ["tabs: 1 tabs; an app needs at least 2"])
        let thirteen = (0..<13).map { tab("t\($0)") }.joined(separator: ",")
        #expect(problems(validJSON(tabs: thirteen)) == ["tabs: 13 tabs; an app has at most 12"])
    }

    /// Issue 36: an app declares its languages; its texts carry those and no other.
    @Test func anAppDeclaresItsLanguagesAndItsTextsCarryThoseOnly() throws {
        let english = """
            {"id": "pulse", "name": {"en": "Pulse"}, "tint": "#FF2D55", "languages": ["en"],
             "tabs": [
               {"id": "home", "title": {"en": "Home"}, "icon": "home", "page": {"kind": "text"}},
               {"id": "plan", "title": {"en": "Plan"}, "icon": "calendar", "page": {"kind": "text"}}
             ]}
            """
        let app = try AppDescription.load(jsonText: english).get()
        #expect(app.languages == ["en"])
        // Without `languages`, those of the name.
        #expect(try AppDescription.load(jsonText: validJSON()).get().languages == ["en", "zh-Hant"])
        // A text in a language the app does not declare, located at that text.
        let extra = english.replacing("{\"en\": \"Plan\"}", with: "{\"en\": \"Plan\", \"zh-Hant\": \"計劃\"}")
        #expect(
            located(extra).map(\.description) == [
                "4:54: tabs[1] 'plan'.title.zh-Hant: 'zh-Hant' is not one of the app's languages (en); "
                    + "add it to \"languages\" or remove this text"
            ])
        // A declared language missing from a text.
        let both = english.replacing("[\"en\"]", with: "[\"zh-Hant\", \"en\"]")
        #expect(problems(both).first == "name: missing 'zh-Hant'")
        #expect(
            problems(english.replacing("[\"en\"]", with: "[]")) == [
                "languages: empty; an app has 1 to 8 languages, such as [\"en\"]"
            ])
        // Any language: TabStage's own labels show in English beside it.
        #expect(problems(english.replacing("[\"en\"]", with: "[\"en\", \"fr\"]")).first == "name: missing 'fr'")
        #expect(
            problems(english.replacing("[\"en\"]", with: "[\"en\", \"en\"]")) == [
                "languages[1]: 'en' is listed twice; languages[0] has it already"
            ])
    }

    @Test func unknownIconName() {
        #expect(
            problems(withTabs(tab(icon: "\"hom\""))) == [
                "tabs[2].icon: unknown icon 'hom'; did you mean 'home'? Expected one of \(BuiltInIcon.allCases.map(\.rawValue).joined(separator: ", ")), or {\"path\": ..., \"fillRule\": ...}"
            ])
        #expect(problems(withTabs(tab(icon: "\"Settngs\""))).first?.contains("did you mean 'settings'?") == true)
        #expect(problems(withTabs(tab(icon: "\"bel\""))).first?.contains("did you mean 'bell'?") == true)
        // The icons a designer reaches for (issue 36) are known, and near misses find them.
        for (typed, meant) in [
            ("calender", "calendar"), ("hearts", "heart"), ("dumbell", "dumbbell"), ("camra", "camera"),
        ] {
            #expect(problems(withTabs(tab(icon: "\"\(typed)\""))).first?.contains("did you mean '\(meant)'?") == true)
        }
        for name in ["people", "heart", "calendar", "clock", "chat", "mail", "map", "play", "cart", "leaf"] {
            #expect(problems(withTabs(tab(icon: "\"\(name)\""))) == [])
        }
    }

    @Test func inlinePathData() throws {
        let app = try AppDescription.load(
            jsonText: withTabs(tab(icon: "{\"path\": \"M0 0h24v24z\", \"fillRule\": \"evenodd\"}"))
        ).get()
        #expect(app.tabs[2].icon == .path(data: "M0 0h24v24z", fillRule: .evenodd))
        #expect(
            problems(withTabs(tab(icon: "{\"path\": \"  \"}"))) == [
                "tabs[2].icon.path: empty path data; give SVG path data such as \"M2 2h20v20H2z\""
            ])
        #expect(
            problems(withTabs(tab(icon: "{\"path\": \"M0 0\", \"fillRule\": \"odd\"}"))) == [
                "tabs[2].icon.fillRule: unknown fill rule 'odd'; expected one of nonzero, evenodd"
            ])
    }

    @Test func unknownPageKind() {
        #expect(
            problems(withTabs(tab(page: "{\"kind\": \"map\"}"))) == [
                "tabs[2].page.kind: unknown page kind 'map'; expected one of text, counter, search, wallet, news, profile, checklist, settings, screen"
            ])
    }

    @Test func badPageFields() {
        let wallet = "{\"kind\": \"wallet\", \"currency\": \"twd\", \"balance\": -1, \"topUpCap\": 1.5}"
        #expect(
            problems(withTabs(tab(page: wallet))) == [
                "tabs[2].page.currency: 'twd' is not a currency code; expected three capital letters, such as TWD",
                "tabs[2].page.balance: -1 is out of range; expected a whole number from 0 to 1000000",
                "tabs[2].page.topUpCap: 1.5 is not a whole number; expected a whole number from 1 to 100000",
            ])
        let counter =
            "{\"kind\": \"counter\", \"label\": {\"en\": \"n\", \"zh-Hant\": \"n\"}, \"start\": 5, \"maximum\": 3, \"items\": []}"
        #expect(
            problems(withTabs(tab(page: counter))) == [
                "tabs[2].page.start: 5 is above the maximum 3",
                "tabs[2].page.items: unknown key; expected one of kind, heading, paragraphs, label, start, maximum",
            ])
        let items =
            "[{\"id\": \"a\", \"title\": {\"en\": \"A\", \"zh-Hant\": \"A\"}}, {\"id\": \"a\", \"title\": {\"en\": \"A\", \"zh-Hant\": \"A\"}}]"
        #expect(
            problems(withTabs(tab(page: "{\"kind\": \"checklist\", \"items\": \(items)}"))) == [
                "tabs[2].page.items[1].id: duplicate item id 'a'; tabs[2].page.items[0] has it already"
            ])
        #expect(
            problems(withTabs(tab(page: "{\"kind\": \"settings\", \"toggles\": []}"))) == [
                "tabs[2].page.toggles: 0 items; a page has 1 to 50"
            ])
        #expect(
            problems(withTabs(tab(page: "{\"kind\": \"search\", \"items\": \(items)}"))) == [
                "tabs[2].page.items[0].detail: missing required key 'detail'",
                "tabs[2].page.items[1].detail: missing required key 'detail'",
                "tabs[2].page.items[1].id: duplicate item id 'a'; tabs[2].page.items[0] has it already",
            ])
    }

    @Test func badPolicies() {
        #expect(
            problems(validJSON(top: " \"policies\": {\"childRetention\": \"forever\", \"reselect\": \"popToRoot\"},"))
                == ["policies.childRetention: unknown child retention 'forever'; expected one of keepAlive, detach"])
        let app = try? AppDescription.load(jsonText: validJSON(top: " \"policies\": {\"reselect\": \"popToRoot\"},"))
            .get()
        #expect(app?.policies.reselect == .popToRoot)
        #expect(app?.policies.childRetention == .keepAlive)
    }

    @Test func badges() throws {
        let app = try AppDescription.load(
            jsonText: withTabs(tab(more: ", \"badge\": 3"), tab("four", more: ", \"badge\": \"New\""))
        ).get()
        #expect(app.tabs[2].initialBadge == .count(3))
        #expect(app.tabs[3].initialBadge == .text(LocalizedText(["en": "New", "zh-Hant": "New"])))
        #expect(
            problems(withTabs(tab(more: ", \"badge\": \"Very long\""))) == [
                "tabs[2].badge: too long (9 characters); a badge has at most 8"
            ])
        let news =
            "{\"kind\": \"news\", \"items\": [{\"id\": \"a\", \"title\": {\"en\": \"A\", \"zh-Hant\": \"A\"}, \"body\": {\"en\": \"A\", \"zh-Hant\": \"A\"}}]}"
        #expect(
            problems(withTabs(tab(page: news, more: ", \"badge\": 2"))) == [
                "tabs[2].badge: a news page's badge is its unread count; remove 'badge'"
            ])
    }

    @Test func manyProblemsAreReportedTogetherInReadingOrder() {
        let json = """
            {"id": "Bad!", "name": {"en": ""}, "tint": "red", "layout": "side", "extra": 1,
             "tabs": [
               {"id": "a", "title": {"en": "A"}, "icon": "hom", "page": {"kind": "text"}},
               {"id": "a", "title": {"en": "A"}, "icon": {"path": ""}, "page": {"kind": "map"}}
             ]}
            """
        let icons = BuiltInIcon.allCases.map(\.rawValue).joined(separator: ", ")
        let kinds = "text, counter, search, wallet, news, profile, checklist, settings, screen"
        #expect(
            located(json).map(\.description) == [
                "1:8: id: 'Bad!' is not a valid id; use 1 to 32 characters from a-z, 0-9 and '-' (ids appear in URLs)",
                "1:31: name.en: empty; a name needs 1 to 40 characters",
                "1:44: tint: 'red' is not a colour; expected #RRGGBB, such as #FF9500",
                "1:61: layout: unknown layout 'side'; expected one of vertical, bottom, adaptive",
                "1:78: extra: unknown key; expected one of id, name, tint, layout, iconStyle, policies, hidesBottomBarWhenPushed, tabs, sections, customizable, showsDemos, textTint, languages",
                "3:46: tabs[0] 'a'.icon: unknown icon 'hom'; did you mean 'home'? Expected one of \(icons), or {\"path\": ..., \"fillRule\": ...}",
                "4:11: tabs[1] 'a'.id: duplicate tab id 'a'; tabs[0] has it already",
                "4:55: tabs[1] 'a'.icon.path: empty path data; give SVG path data such as \"M2 2h20v20H2z\"",
                "4:77: tabs[1] 'a'.page.kind: unknown page kind 'map'; expected one of \(kinds)",
            ])
    }

    @Test func aMessageNamesTheLineColumnAndTabOfItsProblem() {
        let json = """
            {"id": "bank", "name": {"en": "Bank", "zh-Hant": "銀行"}, "tint": "#1E7B3A",
             "tabs": [
               {"id": "home", "title": {"en": "Home", "zh-Hant": "主頁"}, "icon": "home", "page": {"kind": "text"}},
               {"id": "savings", "title": {"en": "Savings"}, "icon": "wallet", "page": {"kind": "text"}}
             ]}
            """
        #expect(located(json).map(\.description) == ["4:31: tabs[1] 'savings'.title: missing 'zh-Hant'"])
        #expect(
            located(json).first?.line(in: "bank.json") == "bank.json:4:31: tabs[1] 'savings'.title: missing 'zh-Hant'")
    }

    @Test func aRepeatedKeyIsReportedWhereItIsRepeated() {
        #expect(located(validJSON(top: "\n \"id\": \"again\",")).first?.description == "2:8: id: duplicate key")
    }

    @Test func pathDataIsCheckedInTheSamePassAsEverythingElse() {
        let json = withTabs(tab(icon: "{\"path\": \"Q1\"}", more: ", \"requiresLogin\": 1"))
        let found = located(json) { data in data == "Q1" ? "bad path data at byte 0" : nil }
        #expect(
            found.map { "\($0.path): \($0.message)" } == [
                "tabs[2].icon.path: bad path data at byte 0",
                "tabs[2].requiresLogin: expected a boolean, found a number",
            ])
    }

    @Test func aUnicodeEscapeIsFourHexDigitsOfEitherCaseWithoutASign() {
        #expect(problems("[\"\\u00e9\\u00C9\"]") == ["expected an object, found an array"])
        #expect(
            located("[\"\\u+0e9\"]").map(\.description) == [
                "1:5: not valid JSON: expected four hex digits after \\u"
            ])
    }

    /// Issue 36: a syntax error says in words what was expected where, never `$`.
    @Test func aMissingCommaNamesTheValueItFollows() {
        #expect(
            located("{\n  \"title\": {\"en\": \"Pulse\"}\n  \"tint\": \"#FF2D55\"\n}").map(\.description) == [
                "3:3: not valid JSON: expected ',' or '}' after the value of \"title\", found '\"'"
            ])
        #expect(
            located("{\"tabs\": [1 2]}").map(\.description) == [
                "1:13: not valid JSON: expected ',' or ']' after tabs[0], found '2'"
            ])
        #expect(
            located("{\"id\" \"x\"}").map(\.description) == [
                "1:7: not valid JSON: expected ':' after the key \"id\", found '\"'"
            ])
        #expect(
            located("{\"tabs\": [1, ").map(\.description) == [
                "1:14: not valid JSON: expected tabs[1], found the end of the file"
            ])
    }

    @Test func syntaxErrorsNameTheirCause() {
        let quote = "a typographic quote '\u{201C}' (JSON strings use straight double quotes \")"
        #expect(
            located("{\"id\": \"a\",\n}").map(\.description) == [
                "1:11: not valid JSON: a trailing comma before '}'; JSON allows no comma after the last item"
            ])
        #expect(
            located("[1, 2, ]").map(\.description) == [
                "1:6: not valid JSON: a trailing comma before ']'; JSON allows no comma after the last item"
            ])
        #expect(
            located("{\n  // the app\n  \"id\": \"a\"}").map(\.description) == [
                "2:3: not valid JSON: expected a key in quotes, found a comment (JSON has no comments)"
            ])
        #expect(
            located("{\"id\": \u{201C}bank\u{201D}}").map(\.description) == [
                "1:8: not valid JSON: expected the value of \"id\", found \(quote)"
            ])
        #expect(
            located("{'id': 1}").map(\.description) == [
                "1:2: not valid JSON: expected a key in quotes, found a single quote (JSON strings use straight double quotes \")"
            ])
    }

    @Test func builtInDemosLoadWithoutProblems() throws {
        for (id, result) in BuiltInApps.loadResults {
            let app = try result.get()
            #expect(app.id == id)
        }
        #expect(BuiltInApps.all.map(\.id) == ["restaurant", "vertical"])
        let restaurant = try #require(BuiltInApps.app(id: "restaurant"))
        #expect(restaurant.tabs.map(\.title.english) == ["Home", "Finding", "Wallet", "News", "Membership"])
        #expect(restaurant.tabs.map { $0.title.text(in: "zh-Hant") } == ["主頁", "尋找", "錢包", "消息", "會員"])
        #expect(restaurant.defaultLayout == .bottom && restaurant.tint == "#FF9500")
        #expect(restaurant.tabs.filter(\.requiresLogin).map(\.id) == ["membership"])
        #expect(restaurant.tabs[1].page.content.items.count == 8)
        let vertical = try #require(BuiltInApps.app(id: "vertical"))
        #expect(vertical.defaultLayout == .vertical && vertical.tint == "#2993EF")
        #expect(vertical.policies.childRetention == .keepAlive)
        #expect(vertical.tabs.count == 5)
        #expect(vertical.tabs.filter(\.requiresLogin).map(\.id) == ["personal-center"])
    }

    @Test func everyDemoPageHasStateAVisitorCanChange() {
        for app in BuiltInApps.all {
            for tab in app.tabs {
                #expect(tab.page.kind != .text, "\(app.id)/\(tab.id) has no changeable state")
            }
        }
    }
}

extension String {
    fileprivate func replacingFirst(_ target: String, with replacement: String) -> String {
        guard let range = range(of: target) else { return self }
        return replacingCharacters(in: range, with: replacement)
    }

    @Test func presetsAndTheirKeys() throws {
        let named = try AppDescription.load(jsonText: validJSON(top: " \"policies\": \"fsVertical\",")).get()
        #expect(named.policies == .fsVertical)
        let object = try AppDescription.load(
            jsonText: validJSON(top: " \"policies\": {\"preset\": \"seed004\", \"reselect\": \"popToRoot\"},")
        ).get()
        #expect(object.policies.preset == .seed004)
        #expect(object.policies.reselect == .popToRoot)
        #expect(object.policies.childRetention == .keepAlive)
        func adaptive(_ top: String = "") -> String {
            validJSON(top: top).replacingOccurrences(of: "\"layout\": \"bottom\"", with: "\"layout\": \"adaptive\"")
        }
        let plain = try AppDescription.load(jsonText: adaptive()).get()
        #expect(plain.policies.preset == .uikit18, "an adaptive app speaks iOS 18's delegate unless it says not")
        let keys = try AppDescription.load(jsonText: adaptive(" \"policies\": {\"reselect\": \"nothing\"},")).get()
        #expect(keys.policies.preset == .uikit18 && keys.policies.reselect == .nothing)
        #expect(
            problems(validJSON(top: " \"policies\": \"android\","))
                == ["policies: unknown policy preset 'android'; expected one of uikit, fsVertical, seed004, uikit18"])
    }

    @Test func aBadgeBoundToACountAndTheBarHiddenWhenPushed() throws {
        let counter = "{\"kind\": \"counter\", \"label\": {\"en\": \"C\", \"zh-Hant\": \"C\"}}"
        let bound = tab(
            "stamps", page: counter, more: ", \"badge\": {\"from\": \"count\"}, \"hidesBottomBarWhenPushed\": false")
        let json = validJSON(
            tabs: [tab("one"), bound].joined(separator: ","), top: " \"hidesBottomBarWhenPushed\": true,")
        let app = try AppDescription.load(jsonText: json).get()
        #expect(app.hidesBottomBarWhenPushed)
        #expect(app.hidesBar(whenPushedOnTabAt: 0))
        #expect(!app.hidesBar(whenPushedOnTabAt: 1))
        #expect(app.tabs[1].badgeBinding == .count)
        #expect(
            problems(withTabs(tab(more: ", \"badge\": {\"from\": \"count\"}")))
                == ["tabs[2].badge.from: only a counter page's badge can be bound to its count"])
    }
}

@Suite struct BadgeAndIconStyleFormatTests {
    @Test func aTextBadgeMayBeLocalizedAndACountSaysWhatItCounts() throws {
        let app = try AppDescription.load(
            jsonText: withTabs(
                tab(more: ", \"badge\": {\"en\": \"New\", \"zh-Hant\": \"新\"}"),
                tab("four", more: ", \"badge\": 3, \"badgeLabel\": {\"en\": \"pending\", \"zh-Hant\": \"待處理\"}"))
        ).get()
        #expect(app.tabs[2].initialBadge?.label(in: "zh-Hant") == "新")
        #expect(app.tabs[2].initialBadge?.label(in: "en") == "New")
        #expect(app.tabs[3].badgeLabel == LocalizedText(en: "pending", zhHant: "待處理"))
        #expect(app.tabs[1].badgeLabel == nil)
    }

    @Test func badgeTextsAndLabelsAreChecked() {
        #expect(
            problems(withTabs(tab(more: ", \"badge\": {\"en\": \"Brand new!\", \"zh-Hant\": \"新\"}"))) == [
                "tabs[2].badge.en: too long (10 characters); a badge has at most 8"
            ])
        #expect(
            problems(withTabs(tab(more: ", \"badge\": {\"en\": \"New\"}"))) == ["tabs[2].badge: missing 'zh-Hant'"])
        #expect(
            problems(withTabs(tab(more: ", \"badge\": \"New\", \"badgeLabel\": {\"en\": \"new\", \"zh-Hant\": \"新\"}")))
                == ["tabs[2].badgeLabel: a badge label says what a count badge counts; this tab's badge is not a count"]
        )
        #expect(
            problems(withTabs(tab(more: ", \"badgeLabel\": {\"en\": \"items\", \"zh-Hant\": \"項\"}"))) == [
                "tabs[2].badgeLabel: a badge label says what a count badge counts; this tab's badge is not a count"
            ])
        #expect(problems(withTabs(tab(more: ", \"badge\": 2, \"badgeLabel\": \"items\""))).count == 1)
    }

    @Test func iconStyleIsGlowUnlessTheAppSaysTinted() throws {
        #expect(try AppDescription.load(jsonText: validJSON()).get().iconStyle == .glow)
        let tinted = try AppDescription.load(jsonText: validJSON(top: " \"iconStyle\": \"tinted\",")).get()
        #expect(tinted.iconStyle == .tinted)
        #expect(
            problems(validJSON(top: " \"iconStyle\": \"flat\",")) == [
                "iconStyle: unknown icon style 'flat'; expected one of glow, tinted"
            ])
    }
}
