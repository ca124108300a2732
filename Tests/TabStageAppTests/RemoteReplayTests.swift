import Foundation
import HTTPTesting
import ServiceTesting
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
        #expect(try names("remote") == names("local"))
        for name in try names("local") {
            #expect(try response("remote", name) == response("local", name), "\(name)")
        }
    }

    /// The snapshot names of a folder, sorted.
    func names(_ dir: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder.path + "/" + dir).filter { $0.hasSuffix(".txt") }
            .map { String($0.dropLast(4)) }.sorted()
    }

    /// Two instances on one Redis behind the sample nginx config, round-robin: the replay's
    /// requests land on both, and every response is the in-process one, live versions aside.
    @Test func aListReplaysThroughNginxOverTwoInstancesOnRedisAsInProcess() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let redis = try RedisServer()
        let instances = try SeveralInstancesTests.proxiedInstances(2, redis, ["--app", RecordTests.coffeePath])
        let nginx = try SeveralInstancesTests.balancer(over: instances)
        let url = ["--url", "http://localhost:\(nginx.port)"]
        let first = snapshotTest(url, dir: "remote")
        #expect(first.out.hasSuffix("12 new, 0 obsolete\n"), "\(first.out)\(first.err)")
        let second = snapshotTest(url, dir: "remote")
        #expect(second.out == "12 snapshots: 12 matched, 0 failed, 0 new, 0 obsolete\n", "\(second.out)\(second.err)")
        let local = snapshotTest(["--app", RecordTests.coffeePath], dir: "local")
        #expect(local.out.contains("0 failed"), "\(local.out)")
        #expect(try names("remote") == names("local"))
        for name in try names("local") {
            #expect(try response("remote", name) == response("local", name), "\(name)")
        }
    }

    @Test func aHostNameIsResolvedAndSaidSoWhenItIsNot() {
        let result = snapshotTest(["--url", "http://no-such-host.invalid:8080"], dir: "none")
        #expect(result.code == 1, "\(result.err)")
        #expect(
            result.err.contains("GET /coffee/bottom/stamps: cannot resolve 'no-such-host.invalid'"), "\(result.err)")
    }

    @Test func anHTTPSURLIsRefusedWithTheReason() {
        let result = snapshotTest(["--url", "https://tabstage.example.com"], dir: "none")
        #expect(result.code == 2)
        #expect(result.err.contains("--url: https is not spoken here: give the server's own http:// address"))
    }

    @Test func theURLsHostMayBeANameOrAnIPv6AddressAndItsPortIsEightyWhenLeftOut() throws {
        let named = try HTTPURL("http://tabstage.internal/")
        #expect(named.host == "tabstage.internal")
        #expect(named.port == 80)
        #expect(named.authority == "tabstage.internal:80")
        #expect(try HTTPURL("http://[::1]:9000").authority == "[::1]:9000")
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
