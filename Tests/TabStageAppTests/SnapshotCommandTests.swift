import Foundation
import PNGCodec
import Testing

@testable import Snapshots
@testable import TabStageApp
@testable import TabStageCLI

/// `tabstage snapshot` run in process on `examples/`, the way a team would use it. The checks
/// read properties of the output (a named line, a count), not whole pages, so that a change of
/// page markup elsewhere does not break them.
@Suite struct SnapshotCommandTests {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tabstage-snapshot-\(UUID())")
    var snapshots: String { folder.appendingPathComponent("snapshots").path }

    func write(_ name: String, _ text: String) throws -> String {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let url = folder.appendingPathComponent(name)
        try Data(text.utf8).write(to: url)
        return url.path
    }

    func read(_ file: String) throws -> String {
        try String(contentsOfFile: snapshots + "/" + file, encoding: .utf8)
    }

    func files() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: snapshots).sorted()
    }

    static let examples = StageServer.repositoryRoot.appendingPathComponent("examples")

    static func example(_ name: String) throws -> String {
        try String(contentsOf: examples.appendingPathComponent(name), encoding: .utf8)
    }

    func test(_ app: String, _ list: String, _ extra: [String] = [], environment: [String: String] = [:]) -> (
        code: Int32, out: String, err: String
    ) {
        runCLI(
            ["snapshot", "test", "--app", app, "--requests", list, "--dir", snapshots] + extra, environment: environment
        )
    }

    /// Records, edits the app, verifies (failing with a diff that names the change), re-records
    /// only what failed, and prunes what no request makes any more.
    @Test func theExampleIsRecordedVerifiedReRecordedAndPruned() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let appText = try Self.example("coffee.json")
        let listText = try Self.example("coffee-requests.txt")
        let app = try write("coffee.json", appText)
        let list = try write("list.txt", listText)

        let recorded = test(app, list, ["--record", "missing"])
        #expect(recorded.code == 0, "\(recorded.out)\(recorded.err)")
        #expect(recorded.out.hasSuffix("12 snapshots: 0 matched, 0 failed, 12 new, 0 obsolete\n"))
        #expect(try files().contains("stamps-first-visit.txt"))
        #expect(try files().contains("post-coffee-bottom-stamps-action.txt"))
        #expect(try files().contains("menu-icon-selected.png"))

        // A comment and a blank line added to the list rename nothing.
        let commented = try write("commented.txt", "# added later\n\n" + listText)
        let verified = test(app, commented)
        #expect(verified.code == 0, "\(verified.out)")
        #expect(verified.out == "12 snapshots: 12 matched, 0 failed, 0 new, 0 obsolete\n")

        // Renaming a tab changes every page that shows the bar; the events and the icon stay.
        let renamed = try write("renamed.json", appText.replacingOccurrences(of: "\"Stamps\"", with: "\"Points\""))
        let failed = test(renamed, list)
        #expect(failed.code == 1)
        #expect(
            failed.out.contains(
                "FAIL stamps-first-visit (\(list):5): the response differs from stamps-first-visit.txt\n"))
        #expect(
            failed.out.contains("\n-bar: [Menu] (Stamps •New) [Account 🔒]\n+bar: [Menu] (Points •New) [Account 🔒]\n"))
        let lines = failed.out.components(separatedBy: "\n")
        #expect(lines.contains { $0.hasPrefix("-") && $0.contains(">Stamps<") })
        #expect(lines.contains { $0.hasPrefix("+") && $0.contains(">Points<") })
        #expect(!failed.out.contains("FAIL menu-icon-selected"))
        #expect(!failed.out.contains("FAIL event-log"))
        let failures = lines.filter { $0.hasPrefix("FAIL ") }.count
        #expect(failed.out.contains("12 snapshots: \(12 - failures) matched, \(failures) failed, 0 new, 0 obsolete\n"))
        #expect(
            failed.out.contains(
                "accept them: tabstage snapshot test --app \(renamed) --requests \(list) --dir \(snapshots) --record failed\n"
            ))
        #expect(!failed.out.contains("\u{1B}["))

        // Re-recording touches only the failed snapshots.
        let modified = try FileManager.default.attributesOfItem(atPath: snapshots + "/event-log.txt")[.modificationDate]
        let accepted = test(renamed, list, ["--record", "failed"])
        #expect(accepted.code == 0, "\(accepted.out)")
        #expect(accepted.out.contains("\(failures) updated"))
        #expect(try read("stamps-first-visit.txt").contains("bar: [Menu] (Points •New) [Account 🔒]"))
        #expect(
            try FileManager.default.attributesOfItem(atPath: snapshots + "/event-log.txt")[.modificationDate]
                as? Date == modified as? Date)
        #expect(test(renamed, list).code == 0)

        // A request taken out of the list leaves an obsolete file, which fails until pruned.
        let shorter = try write(
            "shorter.txt", listText.replacingOccurrences(of: "# as: menu-icon-selected", with: "# as: menu-icon"))
        let obsolete = test(renamed, shorter)
        #expect(obsolete.code == 1)
        #expect(
            obsolete.out.contains(
                "OBSOLETE menu-icon-selected: \(snapshots)/menu-icon-selected.png, \(snapshots)/menu-icon-selected.txt")
        )
        #expect(obsolete.out.contains("13 snapshots: 11 matched, 0 failed, 1 new, 1 obsolete\n"))
        #expect(obsolete.out.hasSuffix(" --requests \(shorter) --dir \(snapshots) --prune\n"))
        let pruned = test(renamed, shorter, ["--prune"])
        #expect(pruned.code == 0, "\(pruned.out)")
        #expect(pruned.out.contains("13 snapshots: 12 matched, 0 failed, 0 new, 0 obsolete, 1 pruned\n"))
        #expect(try !files().contains("menu-icon-selected.txt"))
        #expect(try files().contains("menu-icon.png"))
    }

    @Test func aNewSnapshotFailsOnceUnlessRecordingWasAskedForAndCINeverWrites() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let app = try write("coffee.json", try Self.example("coffee.json"))
        let list = try write("list.txt", "GET /coffee/bottom/menu\n")
        let onCI = test(app, list, environment: ["CI": "1"])
        #expect(onCI.code == 1)
        #expect(
            onCI.out.contains(
                "NEW get-coffee-bottom-menu (\(list):1): no snapshot get-coffee-bottom-menu.txt, and recording is off"))
        #expect(!FileManager.default.fileExists(atPath: snapshots + "/get-coffee-bottom-menu.txt"))
        let first = test(app, list)
        #expect(first.code == 1)
        #expect(first.out.contains("recorded get-coffee-bottom-menu.txt, which is new: review it and run again"))
        #expect(test(app, list).code == 0)
        // The environment's mode is the project's own tests' one: what it writes fails once.
        try Data("stale\n".utf8).write(to: URL(fileURLWithPath: snapshots + "/get-coffee-bottom-menu.txt"))
        let rewritten = test(app, list, environment: ["SNAPSHOT_TESTING_RECORD": "failed"])
        #expect(rewritten.code == 1)
        #expect(rewritten.out.contains("UPDATED get-coffee-bottom-menu"))
        #expect(test(app, list, environment: ["CI": "1"]).code == 0)
    }

    @Test func theAliasesAndAWrongModeAreUnderstood() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let app = try write("coffee.json", try Self.example("coffee.json"))
        let list = try write("list.txt", "GET /coffee/bottom/menu\n")
        let base = ["--app", app, "--requests", list, "--dir", snapshots]
        #expect(runCLI(["snapshot", "verify"] + base).code == 1)
        #expect(runCLI(["snapshot", "record"] + base).code == 0)
        #expect(runCLI(["snapshot", "verify"] + base).code == 0)
        let wrong = runCLI(["snapshot", "test", "--record", "some"] + base)
        #expect(wrong.code == 2)
        #expect(wrong.err.contains("--record must be one of all, missing, failed, never, not 'some'"))
        #expect(runCLI(["snapshot", "record", "--record", "all"] + base).code == 2)
        #expect(runCLI(["snapshot", "check"] + base).code == 2)
    }

    @Test func aWrongStatusFailsAndIsNeverRecorded() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let app = try write("coffee.json", try Self.example("coffee.json"))
        let list = try write("list.txt", "GET /coffee/bottom/account\n  expect 200\n")
        let result = test(app, list, ["--record", "all"])
        #expect(result.code == 1)
        #expect(result.out.contains("FAIL get-coffee-bottom-account (\(list):1): expected status 200, got 403\n"))
        #expect(!FileManager.default.fileExists(atPath: snapshots + "/get-coffee-bottom-account.txt"))
    }

    @Test func aMistakeInTheListIsReportedWithItsFileAndLine() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let list = try write(
            "list.txt", "# search\nGET /coffee/bottom/menu\nPOST /coffee/bottom/menu/action q=flat white\n")
        let result = runCLI(["snapshot", "test", "--requests", list, "--dir", snapshots])
        #expect(result.code == 1)
        #expect(result.err == "\(list):3: a form value with a space must be quoted or encoded\n")
    }

    @Test func anInvalidAppPrintsItsProblems() throws {
        let broken = Self.examples.appendingPathComponent("broken.json").path
        let list = try write("requests.txt", "GET /\n")
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = runCLI(["snapshot", "verify", "--app", broken, "--requests", list, "--dir", folder.path])
        #expect(result.code == 1)
        #expect(result.err.contains("\(broken):2:9: id: "))
    }

    /// The prototype section says what the request did in the model's words.
    @Test func theTopOfAPageSnapshotSaysWhatThePrototypeDid() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let app = try write("coffee.json", try Self.example("coffee.json"))
        let list = try write(
            "list.txt",
            """
            GET /coffee/bottom/stamps
            POST /coffee/bottom/stamps/action action=increment
            TAP /coffee/bottom/stamps
            GET /coffee/vertical/menu?lang=zh-Hant
            """)
        #expect(test(app, list).code == 1)
        let first = try read("get-coffee-bottom-stamps.txt")
        #expect(first.hasPrefix("== request\nGET /coffee/bottom/stamps\n== prototype\n"))
        for line in [
            "app: coffee (Corner Coffee)", "layout: bottom", "language: en", "visitor: logged out",
            "bar: [Menu] (Stamps •New) [Account 🔒]", "page: Stamps", "form: count 0", "events:", "== response",
        ] {
            #expect(first.contains("\n\(line)\n"), "\(line)")
        }
        let firstEvents = Self.events(in: first)
        #expect(firstEvents.first == Event(sequence: 1, text: "guard stamps (url) → allowed"))
        #expect(firstEvents.contains { $0.text == "stamps viewDidAppear" })
        let posted = try read("post-coffee-bottom-stamps-action.txt")
        #expect(posted.contains("\nform: count 1\nevents:\n"))
        // Each snapshot lists the events its request caused, numbered on from the last one's.
        let nextSequence = (firstEvents.last?.sequence ?? 0) + 1
        #expect(Self.events(in: posted) == [Event(sequence: nextSequence, text: "page action stamps increment")])
        let tapped = try read("tap-coffee-bottom-stamps.txt")
        #expect(tapped.contains("\nX-TabStage-Source: tap\n"))
        // The UIKit preset: a reselect tap is asked and told, and popping keeps the root's count.
        #expect(tapped.contains("\nform: count 1\nevents:\n"))
        #expect(
            Self.events(in: tapped).map(\.text) == [
                "shouldSelect stamps (tap) → yes", "popToRoot stamps", "didSelect stamps (tap)",
            ])
        let chinese = try read("get-coffee-vertical-menu-lang-zh-hant.txt")
        #expect(chinese.contains("\nlayout: vertical\nlanguage: zh-Hant\n"))
        #expect(chinese.contains("\nbar: (菜單) [集點 •New] [帳戶 🔒]\n"))
    }

    struct Event: Equatable {
        var sequence: Int
        var text: String
    }

    /// The events of a snapshot's prototype section: its lines `  #N text`.
    static func events(in snapshot: String) -> [Event] {
        let prototype = snapshot.components(separatedBy: "== response").first ?? ""
        return prototype.components(separatedBy: "\n").compactMap { line in
            let rest = line.dropFirst(3)
            guard line.hasPrefix("  #"), let space = rest.firstIndex(of: " "), let sequence = Int(rest[..<space])
            else { return nil }
            return Event(sequence: sequence, text: String(rest[rest.index(after: space)...]))
        }
    }

    @Test func sessionIdsAndTokensAreRedactedAndAUsersHeaderToo() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let app = try write("coffee.json", try Self.example("coffee.json"))
        let list = try write(
            "list.txt",
            """
            redact: Cache-Control
            redact: /Ten stamps/
            GET /coffee/bottom/stamps
            POST /login name=Ada&next=%2Fcoffee%2Fbottom%2Fstamps
            """)
        #expect(test(app, list).code == 1)
        let page = try read("get-coffee-bottom-stamps.txt")
        #expect(page.contains("\nSet-Cookie: tabstage_session=<session-1>; Path=/; HttpOnly; SameSite=Lax\n"))
        #expect(page.contains("name=\"csrf\" value=\"<csrf-1>\""))
        #expect(page.contains("\nCache-Control: <redacted>\n"))
        #expect(page.contains("<redacted-1> earn a free drink."))
        let login = try read("post-login.txt")
        #expect(login.contains("\nSet-Cookie: tabstage_session=<session-2>;"))
        #expect(login.contains("\nvisitor: logged in as Ada\n"))
    }

    @Test func anIconIsKeptBesideItsSnapshotAndAChangeLeavesImagesToReview() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let appText = try Self.example("coffee.json")
        let app = try write("coffee.json", appText)
        let list = try write("list.txt", "GET /icons/apps/coffee/menu/selected@2x.png  # as: icon\n")
        #expect(test(app, list, ["--record", "missing"]).code == 0)
        let stored = try DecodedPNG(Array(try Data(contentsOf: URL(fileURLWithPath: snapshots + "/icon.png"))))
        #expect(
            try read("icon.txt").contains(
                "\n<PNG \(stored.width) x \(stored.height), pixels fnv1a64 \(HTTPSnapshot.fingerprint(stored.rgba))>\n")
        )

        let retinted = try write("retinted.json", appText.replacingOccurrences(of: "#6F4E37", with: "#2993EF"))
        let report = folder.appendingPathComponent("report.html").path
        let junit = folder.appendingPathComponent("junit.xml").path
        let failed = test(retinted, list, ["--report", report, "--junit", junit])
        #expect(failed.code == 1)
        #expect(try files() == ["icon.actual.png", "icon.diff.png", "icon.png", "icon.txt"])
        let difference = try DecodedPNG(Array(try Data(contentsOf: URL(fileURLWithPath: snapshots + "/icon.diff.png"))))
        #expect(difference.width == stored.width)
        #expect(difference.rgba.count == stored.rgba.count)
        let html = try String(contentsOfFile: report, encoding: .utf8)
        #expect(html.hasPrefix("<!doctype html>\n<html lang=\"en\">\n"))
        #expect(html.contains("<h2 id=\"result-0\">icon: failed</h2>"))
        #expect(html.contains("alt=\"icon.diff.png\" src=\"data:image/png;base64,"))
        #expect(html.contains("<td class=\"removed\">&lt;PNG "))
        let xml = try String(contentsOfFile: junit, encoding: .utf8)
        #expect(xml.contains("<testsuite name=\"tabstage snapshot\" tests=\"1\" failures=\"1\""))
        #expect(xml.contains("<testcase classname=\"\(list)\" name=\"icon\" file=\"\(list)\" line=\"1\">"))
        #expect(
            xml.contains(
                "<failure message=\"the response differs from icon.txt\" type=\"icon: failed\">--- expected\n+++ actual\n"
            ))

        #expect(test(app, list).code == 0)
        #expect(try files() == ["icon.png", "icon.txt"])
    }

    @Test func aTerminalGetsTheChangedWordsHighlighted() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let appText = try Self.example("coffee.json")
        let list = try write("list.txt", "GET /coffee/bottom/menu\n")
        #expect(test(try write("coffee.json", appText), list, ["--record", "all"]).code == 0)
        let renamed = try write("renamed.json", appText.replacingOccurrences(of: "\"Menu\"", with: "\"Drinks\""))
        let result = runCLI(
            ["snapshot", "test", "--app", renamed, "--requests", list, "--dir", snapshots], outIsTerminal: true)
        #expect(result.code == 1)
        #expect(result.out.contains("\(LineDiff.Style.reverse)Drinks\(LineDiff.Style.noReverse)"))
    }
}
