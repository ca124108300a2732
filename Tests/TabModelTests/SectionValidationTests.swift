import Testing

@testable import TabModel

/// A description with three text tabs (a, b, c) and `extra` members at its top.
private func sectioned(_ extra: String) -> String {
    let tabs = ["a", "b", "c"].map {
        "{\"id\": \"\($0)\", \"title\": {\"en\": \"T\", \"zh-Hant\": \"T\"}, \"icon\": \"star\", \"page\": {\"kind\": \"text\"}}"
    }
    return """
        {"id": "demo", "name": {"en": "Demo", "zh-Hant": "示範"}, "tint": "#FF9500",
         "tabs": [\(tabs.joined(separator: ",\n  "))],
         \(extra)}
        """
}

private func report(_ json: String) -> [String] {
    switch AppDescription.load(jsonText: json) {
    case .success: []
    case .failure(let report): report.problems.map(\.description)
    }
}

private let title = "\"title\": {\"en\": \"S\", \"zh-Hant\": \"S\"}"

@Suite struct SectionValidationTests {
    @Test func sectionsAndCustomizableTabsLoadInTheirOrder() throws {
        let json = sectioned(
            "\"sections\": [{\"id\": \"more\", \(title), \"tabs\": [\"c\", \"a\"]}], \"customizable\": [\"c\", \"b\"]")
        let app = try AppDescription.load(jsonText: json).get()
        #expect(
            app.sections == [
                TabSectionDescription(id: "more", title: LocalizedText(en: "S", zhHant: "S"), tabIDs: ["c", "a"])
            ])
        #expect(app.customizableTabIDs == ["b", "c"])
        #expect(app.defaultOrder == [1, 2, 0])
        #expect(app.sectionIndex(ofTabAt: 0) == 0)
        #expect(app.sectionIndex(ofTabAt: 1) == nil)
    }

    @Test func anUnknownTabIsLocatedAtItsPlaceInTheSection() {
        let json = sectioned(
            "\"sections\": [{\"id\": \"s\", \(title), \"tabs\": [\"a\"]},\n {\"id\": \"t\", \(title), \"tabs\": [\"b\", \"c\", \"zz\"]}]"
        )
        #expect(
            report(json) == ["6:71: sections[1].tabs[2]: unknown tab 'zz'; expected the id of one of the app's tabs"])
    }

    @Test func aTabInTwoSectionsEmptySectionsAndDuplicateIDsAreEachReported() {
        let json = sectioned(
            "\"sections\": [{\"id\": \"s\", \(title), \"tabs\": [\"a\", \"b\"]}, {\"id\": \"s\", \(title), \"tabs\": [\"b\"]},"
                + " {\"id\": \"u\", \(title), \"tabs\": []}]")
        #expect(
            report(json) == [
                "5:93: sections[1].id: duplicate section id 's'; sections[0] has it already",
                "5:145: sections[1].tabs[0]: tab 'b' is in sections[0] already; a tab is in one section at most",
                "5:210: sections[2].tabs: empty; a section lists at least one tab",
            ])
    }

    @Test func anUnknownTabInOneSectionStillLetsATabInTwoSectionsBeReported() {
        let json = sectioned(
            "\"sections\": [{\"id\": \"s\", \(title), \"tabs\": [\"a\", \"zz\"]}, {\"id\": \"t\", \(title), \"tabs\": [\"a\"]}]"
        )
        let problems = report(json)
        #expect(problems.count == 2)
        #expect(
            problems.contains {
                $0.hasSuffix("sections[0].tabs[1]: unknown tab 'zz'; expected the id of one of the app's tabs")
            })
        #expect(
            problems.contains {
                $0.hasSuffix("sections[1].tabs[0]: tab 'a' is in sections[0] already; a tab is in one section at most")
            })
    }

    @Test func customizableTabsMustBeKnownAndListedOnce() {
        let json = sectioned("\"customizable\": [\"a\", \"nope\", \"a\"]")
        #expect(
            report(json) == [
                "5:24: customizable[1]: unknown tab 'nope'; expected the id of one of the app's tabs",
                "5:32: customizable[2]: tab 'a' is listed twice; customizable[0] has it already",
            ])
    }

    @Test func allowsHidingIsABoolean() {
        let json = sectioned("\"layout\": \"adaptive\"").replacing(
            "\"id\": \"b\",", with: "\"id\": \"b\", \"allowsHiding\": \"yes\",")
        #expect(report(json) == ["3:31: tabs[1] 'b'.allowsHiding: expected a boolean, found a string"])
    }
}
