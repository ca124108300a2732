import Foundation
import Testing

@testable import TabStageApp

@Suite struct SnapshotCommandTests {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tabstage-snapshot-\(UUID())")

    func write(_ name: String, _ text: String) throws -> String {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let url = folder.appendingPathComponent(name)
        try Data(text.utf8).write(to: url)
        return url.path
    }

    static let requests = """
        # a visit to the coffee app
        GET /coffee/bottom/stamps
        POST /coffee/bottom/stamps/action action=increment

        GET /coffee/bottom/stamps
        GET /coffee/events.json
        """

    @Test func recordThenVerifyPassesAndAChangeFailsWithADiff() throws {
        let examples = StageServer.repositoryRoot.appendingPathComponent("examples")
        let appText = try String(contentsOf: examples.appendingPathComponent("coffee.json"), encoding: .utf8)
        let app = try write("coffee.json", appText)
        let list = try write("requests.txt", Self.requests)
        let snapshots = folder.appendingPathComponent("snapshots").path
        defer { try? FileManager.default.removeItem(at: folder) }

        let recorded = runCLI(["snapshot", "record", "--app", app, "--requests", list, "--dir", snapshots])
        #expect(recorded.code == 0, "\(recorded.err)")
        let files = try FileManager.default.contentsOfDirectory(atPath: snapshots).sorted()
        #expect(
            files == [
                "002-get-coffee-bottom-stamps.txt", "003-post-coffee-bottom-stamps-action.txt",
                "005-get-coffee-bottom-stamps.txt", "006-get-coffee-events-json.txt",
            ])
        let verified = runCLI(["snapshot", "verify", "--app", app, "--requests", list, "--dir", snapshots])
        #expect(verified.code == 0, "\(verified.out)")

        let changedList = try write("changed.txt", Self.requests.replacingOccurrences(of: "increment", with: "reset"))
        let changedRequest = runCLI(["snapshot", "verify", "--app", app, "--requests", changedList, "--dir", snapshots])
        #expect(changedRequest.code == 1)
        #expect(changedRequest.out.contains("005-get-coffee-bottom-stamps: does not match"))
        #expect(changedRequest.out.contains("− <p class=\"balance\">1</p>"))
        #expect(changedRequest.out.contains("+ <p class=\"balance\">0</p>"))

        let renamed = try write("renamed.json", appText.replacingOccurrences(of: "\"Stamps\"", with: "\"Points\""))
        let changedApp = runCLI(["snapshot", "verify", "--app", renamed, "--requests", list, "--dir", snapshots])
        #expect(changedApp.code == 1)
        #expect(changedApp.out.contains("<span class=\"tab-title\">Points</span>"))
    }

    @Test func anInvalidAppPrintsItsProblems() throws {
        let broken = StageServer.repositoryRoot.appendingPathComponent("examples/broken.json").path
        let list = try write("requests.txt", "GET /\n")
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = runCLI(["snapshot", "verify", "--app", broken, "--requests", list, "--dir", folder.path])
        #expect(result.code == 1)
        #expect(result.err.contains("\(broken):2:9: id: "))
    }

    @Test func aBadRequestLineIsReported() throws {
        #expect(throws: SnapshotCommand.RequestListError.self) { try SnapshotCommand.parse("GET\n") }
        #expect(throws: SnapshotCommand.RequestListError.self) { try SnapshotCommand.parse("DELETE /x\n") }
        let parsed = try SnapshotCommand.parse("# c\n\nPOST /a/b x=1\n")
        #expect(parsed.first?.snapshotName == "003-post-a-b")
        #expect(SnapshotCommand.ReplayRequest.slug("/") == "root")
    }
}
