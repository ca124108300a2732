import Foundation
import Testing

@testable import TabModel

/// docs/container.md and docs/adaptive.md list, per preset, the events each scenario records. These tests run every
/// scenario against the model and compare with the table, so the table cannot drift. With
/// `CONTAINER_TABLE_RECORD=1` in the environment they write the tables instead (then read them).
@Suite(.serialized) struct PresetTableTests {
    static let docs = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("docs")

    /// docs/container.md holds the tables of the classic presets, docs/adaptive.md iOS 18's.
    static func documentURL(_ preset: PolicyPreset) -> URL {
        docs.appendingPathComponent(preset == .uikit18 ? "adaptive.md" : "container.md")
    }

    @Test(arguments: PolicyPreset.allCases)
    func everyRowOfThePresetsTableIsWhatTheModelRecords(preset: PolicyPreset) throws {
        let computed = TableScenario.all.filter { $0.applies(to: preset) }.map {
            TableRow(scenario: $0.name, events: $0.events(preset))
        }
        if ProcessInfo.processInfo.environment["CONTAINER_TABLE_RECORD"] == "1" {
            try Self.record(computed, preset: preset)
            return
        }
        let document = try String(contentsOf: Self.documentURL(preset), encoding: .utf8)
        let documented = try #require(TableRow.parse(document, preset: preset), "no table for \(preset.rawValue)")
        #expect(documented.map(\.scenario) == computed.map(\.scenario))
        for (written, actual) in zip(documented, computed) {
            #expect(written.events == actual.events, "\(preset.rawValue): \(actual.scenario)")
        }
    }

    private static func record(_ rows: [TableRow], preset: PolicyPreset) throws {
        let documentURL = documentURL(preset)
        let document = try String(contentsOf: documentURL, encoding: .utf8)
        let (start, end) = TableRow.markers(preset)
        guard let from = document.range(of: start),
            let to = document.range(of: end, range: from.upperBound..<document.endIndex)
        else { throw RecordError.missingMarkers(preset.rawValue) }
        let table = TableRow.header + rows.map(\.line).joined()
        let updated = document.replacingCharacters(in: from.upperBound..<to.lowerBound, with: "\n" + table)
        try updated.write(to: documentURL, atomically: true, encoding: .utf8)
    }

    enum RecordError: Error { case missingMarkers(String) }
}

/// One row: a scenario and the events it records, as the log describes them.
struct TableRow: Equatable {
    var scenario: String
    var events: [String]

    static let separator = " · "
    static let header = "| Scenario | Events, in order |\n|---|---|\n"

    static func markers(_ preset: PolicyPreset) -> (String, String) {
        ("<!-- events: \(preset.rawValue) -->", "<!-- end of events: \(preset.rawValue) -->")
    }

    var line: String { "| \(scenario) | \(events.joined(separator: Self.separator)) |\n" }

    /// The rows between the preset's markers; nil when the markers are missing.
    static func parse(_ document: String, preset: PolicyPreset) -> [TableRow]? {
        let (start, end) = markers(preset)
        guard let from = document.range(of: start),
            let to = document.range(of: end, range: from.upperBound..<document.endIndex)
        else { return nil }
        return document[from.upperBound..<to.lowerBound].split(separator: "\n").dropFirst(2).compactMap { line in
            let cells = line.split(separator: "|", omittingEmptySubsequences: false).map {
                $0.trimmingCharacters(in: .whitespaces)
            }
            guard cells.count == 4 else { return nil }
            return TableRow(scenario: cells[1], events: cells[2].components(separatedBy: Self.separator))
        }
    }
}

/// The scenarios of the table, on a three-tab app: Home (a counter), News (a news list with
/// items `a` and `b`) and Member (login only); those about More on a seven-tab app in the bottom
/// layout: Home, News, Cart and Shop in the bar, Inbox, Extra and Member (login only) under More.
struct TableScenario: Sendable {
    var name: String
    /// The presets whose table has the row; nil: every one.
    var presets: [PolicyPreset]? = nil
    /// The seven-tab app, in the bottom layout.
    var hasMore = false
    /// What happens before the row's events; not part of the row.
    var setUp: @Sendable (inout TabContainer) -> Void
    var step: @Sendable (inout TabContainer) -> Void

    func applies(to preset: PolicyPreset) -> Bool { presets?.contains(preset) ?? true }

    func events(_ preset: PolicyPreset) -> [String] {
        var container = TabContainer(app: hasMore ? Self.moreApp(preset) : Self.app(preset))
        setUp(&container)
        let before = container.lastSequence
        step(&container)
        return container.log.events.filter { $0.sequence > before }.map(\.kind.description)
    }

    static func app(_ preset: PolicyPreset) -> AppDescription {
        makeApp(
            [counterTab("home"), newsTab("news", itemIDs: ["a", "b"]), counterTab("member", requiresLogin: true)],
            policies: NavigationPolicies(preset: preset))
    }

    static func moreApp(_ preset: PolicyPreset) -> AppDescription {
        let tabs = [
            counterTab("home"), newsTab("news", itemIDs: ["a", "b"]), counterTab("cart"), counterTab("shop"),
            counterTab("inbox"), counterTab("extra"), counterTab("member", requiresLogin: true),
        ]
        return makeApp(tabs, policies: NavigationPolicies(preset: preset))
    }

    @Sendable static func enter(_ container: inout TabContainer) {
        _ = container.select(.tab("home"), source: .url, isLoggedIn: false, at: startTime)
    }

    /// The seven-tab app entered by Home's URL in the bottom layout.
    @Sendable static func enterBottom(_ container: inout TabContainer) {
        _ = container.select(.tab("home"), source: .url, isLoggedIn: false, at: startTime, in: .bottom)
    }

    /// More tapped from Home: its list on screen.
    @Sendable static func moreList(_ container: inout TabContainer) {
        enterBottom(&container)
        container.tapMore()
    }

    /// More tapped from Home, then Inbox's row chosen.
    @Sendable static func inboxOnMore(_ container: inout TabContainer) {
        moreList(&container)
        container.chooseRow("inbox")
    }

    static let uiKitOnly: [PolicyPreset] = PolicyPreset.allCases.filter(\.isUIKit)

    /// The seven-tab app with a section, Library (Inbox, Extra, Member), whose tabs may move, and
    /// Inbox and Extra may be hidden.
    static func editApp(_ preset: PolicyPreset) -> AppDescription {
        var app = moreApp(preset)
        let library = ["inbox", "extra", "member"]
        app.sections = [TabSectionDescription(id: "library", title: text("Library"), tabIDs: library)]
        app.customizableTabIDs = library
        for position in [4, 5] { app.tabs[position].allowsHiding = true }
        return app
    }

    static let moreScenarios: [TableScenario] = [
        TableScenario(
            name: "More tapped (from Home)", presets: uiKitOnly, hasMore: true, setUp: enterBottom,
            step: { $0.tapMore() }),
        TableScenario(
            name: "a More row chosen (Inbox)", hasMore: true,
            setUp: moreList, step: { $0.chooseRow("inbox") }),
        TableScenario(
            name: "More tapped again, its list showing", presets: uiKitOnly, hasMore: true,
            setUp: moreList, step: { $0.tapMore() }),
        TableScenario(
            name: "More tapped again, Inbox pushed on it", presets: uiKitOnly, hasMore: true, setUp: inboxOnMore,
            step: { $0.tapMore() }),
        TableScenario(
            name: "a bar tab tapped while Inbox shows on More (Home)", presets: uiKitOnly, hasMore: true,
            setUp: inboxOnMore, step: { $0.tap("home", in: .bottom) }),
        TableScenario(
            name: "More tapped again after leaving it with Inbox pushed (tap Home, tap More)", presets: uiKitOnly,
            hasMore: true,
            setUp: {
                inboxOnMore(&$0); $0.tap("home", in: .bottom)
            }, step: { $0.tapMore() }),
        TableScenario(
            name: "a login-only tab under More (Member's row, logged out)", hasMore: true,
            setUp: moreList, step: { $0.chooseRow("member") }),
        TableScenario(
            name: "a tab under More by its URL (Inbox, from Home)", presets: uiKitOnly, hasMore: true,
            setUp: enterBottom,
            step: { _ = $0.select(.tab("inbox"), source: .url, isLoggedIn: false, at: startTime, in: .bottom) }),
    ]

    static let editSession = TableScenario(
        name: "the adaptive edit session (Edit; move Extra up; hide Inbox; Done)", presets: uiKitOnly,
        setUp: { container in
            container = TabContainer(app: editApp(container.app.policies.preset))
            _ = container.select(.tab("home"), source: .url, isLoggedIn: false, at: startTime, in: .adaptive)
        },
        step: { container in
            container.beginCustomizing(at: startTime, in: .adaptive)
            container.moveTab("extra", by: -1, at: startTime, in: .adaptive)
            container.setTabHidden("inbox", true, isLoggedIn: false, at: startTime, in: .adaptive)
            container.endCustomizing(at: startTime, in: .adaptive)
        })

    /// A tab the visitor hid has no cell and no row: a person has no way to it on a device, so its
    /// URL (or a window still showing its cell) opens nothing; only code selects it.
    static let hiddenTabByURL = TableScenario(
        name: "a hidden tab by its URL (Inbox hidden in Edit; its URL typed)",
        setUp: { container in
            container = TabContainer(app: editApp(container.app.policies.preset))
            _ = container.select(.tab("home"), source: .url, isLoggedIn: false, at: startTime, in: .adaptive)
            container.setTabHidden("inbox", true, isLoggedIn: false, at: startTime, in: .adaptive)
            container.endCustomizing(at: startTime, in: .adaptive)
        },
        step: { _ = $0.select(.tab("inbox"), source: .url, isLoggedIn: false, at: startTime, in: .adaptive) })

    static let all: [TableScenario] =
        [
            TableScenario(name: "first display (URL of Home)", setUp: { _ in }, step: enter),
            TableScenario(name: "switch (tap News)", setUp: enter, step: { $0.tap("news") }),
            TableScenario(
                name: "switch back (tap Home)",
                setUp: {
                    enter(&$0); $0.tap("news")
                }, step: { $0.tap("home") }),
            TableScenario(name: "reselect (tap Home again)", setUp: enter, step: { $0.tap("home") }),
            TableScenario(
                name: "push a detail (News item a)",
                setUp: {
                    enter(&$0); $0.tap("news")
                },
                step: { _ = $0.push(item: "a", onTab: "news", at: startTime) }),
            TableScenario(
                name: "Back from the detail",
                setUp: {
                    enter(&$0); $0.tap("news"); _ = $0.push(item: "a", onTab: "news", at: startTime)
                },
                step: { _ = $0.pop(onTab: "news", at: startTime) }),
            TableScenario(
                name: "reselect with a detail pushed",
                setUp: {
                    enter(&$0); $0.tap("news"); _ = $0.push(item: "a", onTab: "news", at: startTime)
                },
                step: { $0.tap("news") }),
            TableScenario(
                name: "switch away from a detail and back (News shows item a; tap Home, tap News)",
                setUp: {
                    enter(&$0); $0.tap("news"); _ = $0.push(item: "a", onTab: "news", at: startTime)
                },
                step: {
                    $0.tap("home"); $0.tap("news")
                }),
            TableScenario(name: "refused tap (Member, logged out)", setUp: enter, step: { $0.tap("member") }),
            TableScenario(
                name: "refused URL entry (Member, logged out)", setUp: enter,
                step: { _ = $0.select(.tab("member"), source: .url, isLoggedIn: false, at: startTime) }),
            TableScenario(
                name: "programmatic selection (News)", setUp: enter,
                step: { _ = $0.select(.tab("news"), source: .code, isLoggedIn: false, at: startTime) }),
            TableScenario(
                name: "log-out on Member",
                setUp: {
                    enter(&$0); $0.tap("member", loggedIn: true)
                },
                step: { _ = $0.visitorLoggedOut(at: startTime) }),
            TableScenario(
                name: "tab replacement removing the selected tab (News, logged out)",
                setUp: {
                    enter(&$0); $0.tap("news")
                },
                step: { container in
                    let newTabs = [counterTab("home"), counterTab("member", requiresLogin: true), counterTab("extra")]
                    container.replaceTabs(
                        with: makeApp(newTabs, policies: container.app.policies), isLoggedIn: false, at: startTime)
                }),
            TableScenario(
                name: "action from a stale window (+1 on Home while News is selected)",
                setUp: {
                    enter(&$0); $0.tap("news")
                }, step: { $0.act(.increment, on: "home") }),
        ] + moreScenarios + [editSession, hiddenTabByURL]
}
