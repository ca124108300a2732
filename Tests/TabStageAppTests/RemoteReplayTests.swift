import Foundation
import Testing

@testable import Snapshots
@testable import TabStageApp
@testable import TabStageCLI

/// `tabstage snapshot test --url` (issue 35): a request list replayed against a running server
/// (in process, memory store) as one visitor, redacted where a live server does not repeat.
@Suite struct RemoteReplayTests {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tabstage-remote-\(UUID())")

    func snapshotTest(_ target: [String], dir: String) -> (code: Int32, out: String, err: String) {
        let list = StageServer.repositoryRoot.appendingPathComponent("examples/coffee-requests.txt").path
        return runCLI(["snapshot", "test"] + target + ["--requests", list, "--dir", folder.path + "/" + dir])
    }

    /// The response parts of a snapshot file, with the live versions the remote run redacts.
    func response(_ dir: String, _ name: String) throws -> String {
        let text = try String(contentsOfFile: folder.path + "/\(dir)/\(name).txt", encoding: .utf8)
        let response = text.components(separatedBy: "== response\n").last ?? ""
        return response.replacing(#/data-version="[^"]*"/#, with: "data-version=\"*\"")
    }

    @Test func aListReplaysAgainstARunningServerRecordingThenMatching() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let stage = try RecordTests.coffeeServer()
        let url = ["--url", "http://127.0.0.1:\(stage.server.port)"]
        let first = snapshotTest(url, dir: "remote")
        #expect(
            first.out.hasSuffix("12 snapshots: 0 matched, 0 failed, 12 new, 0 obsolete\n"), "\(first.out)\(first.err)")
        let second = snapshotTest(url, dir: "remote")
        #expect(second.code == 0, "\(second.out)\(second.err)")
        #expect(second.out == "12 snapshots: 12 matched, 0 failed, 0 new, 0 obsolete\n")

        // The prototype section says where it came from and what was redacted.
        let stamp = try String(contentsOfFile: folder.path + "/remote/stamps-tapped-again.txt", encoding: .utf8)
        #expect(stamp.contains("== prototype\n" + RemoteReplay.redactionNote + "\napp: coffee\nevents:\n"))
        #expect(!stamp.contains("127.0.0.1:\(stage.server.port)"))

        // The responses are the in-process ones, live versions aside.
        let local = snapshotTest(["--app", RecordTests.coffeePath], dir: "local")
        #expect(local.out.contains("0 failed"), "\(local.out)")
        for name in ["stamps-first-visit", "stamps-after-a-stamp", "stamps-tapped-again", "menu-fragment-zh"] {
            #expect(try response("remote", name) == response("local", name), "\(name)")
        }
    }

    @Test func aServerThatDoesNotAnswerIsSaidSo() {
        let result = snapshotTest(["--url", "http://127.0.0.1:1"], dir: "none")
        #expect(result.code == 1)
        #expect(result.err.contains("tabstage snapshot: http://127.0.0.1:1: GET /coffee/bottom/stamps: cannot connect"))
    }

    @Test func appAndURLExcludeEachOther() {
        let result = snapshotTest(["--app", RecordTests.coffeePath, "--url", "http://127.0.0.1:8080"], dir: "none")
        #expect(result.code == 2)
        #expect(result.err.contains("--app and --url exclude each other"))
    }
}
