import Foundation
import HTTPTesting
import Synchronization
import Testing
import Views

@testable import Snapshots
@testable import TabStageApp
@testable import TabStageCLI

#if canImport(Glibc)
    import Glibc
#endif

/// The built binary on a SQLite file: every change that got a response survives a SIGKILL.
@Suite struct DurabilityTests {
    /// One browser against a port: its cookie and form token.
    final class Browser {
        let port: UInt16
        var cookie = ""
        var token = ""
        init(port: UInt16) { self.port = port }

        func get(_ path: String) throws -> TestResponse {
            let response = try HTTPTestClient(port: port).get(path, headers: ["Cookie": cookie])
            if let set = response.header("Set-Cookie"), let pair = set.split(separator: ";").first {
                cookie = String(pair)
            }
            if let found = FormToken.csrfToken(in: response.body) { token = found }
            return response
        }

        /// What a posting thread needs, as a value it can take along.
        var poster: Poster { Poster(port: port, cookie: cookie, token: token) }

        /// The sequence number of the newest event: it keeps counting when the log drops old ones.
        func lastSequence() throws -> Int {
            let text = try get("/restaurant/events.json").text
            return text.components(separatedBy: "\"sequence\": ").dropFirst()
                .compactMap { Int($0.prefix { $0.isNumber }) }.max() ?? 0
        }
    }

    struct Poster: Sendable {
        let port: UInt16
        let cookie: String
        let token: String

        /// Selects `tab` by URL: one `didSelect` in the session's event log, committed before the 200.
        func select(_ tab: String) throws -> Int {
            try HTTPTestClient(port: port).get("/restaurant/bottom/\(tab)", headers: ["Cookie": cookie]).status
        }
    }

    @Test func everyAnsweredChangeSurvivesSIGKILLUnderLoad() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tabstage-kill-\(UUID())")
        defer { try? FileManager.default.removeItem(at: folder) }
        let database = folder.appendingPathComponent("sessions.sqlite").path
        let (server, port) = try launchServe(["--sessions", "sqlite:" + database])
        defer { if server.isRunning { kill(server.processIdentifier, SIGKILL) } }

        let threads = 3
        let browsers = (0..<threads).map { _ in Browser(port: port) }
        for browser in browsers { #expect(try browser.get("/restaurant/bottom/home").status == 200) }
        // Once both tabs exist, every switch between them logs the same number of events.
        var initial: [Int] = []
        var perSwitch = 0
        for browser in browsers {
            _ = try browser.get("/restaurant/bottom/wallet")
            _ = try browser.get("/restaurant/bottom/home")
            let before = try browser.lastSequence()
            _ = try browser.get("/restaurant/bottom/wallet")
            _ = try browser.get("/restaurant/bottom/home")
            initial.append(try browser.lastSequence())
            perSwitch = (initial[initial.count - 1] - before) / 2
        }
        try #require(perSwitch > 0)
        // Answered selections per browser, alternating two tabs so that each is a change.
        let acknowledged = Mutex([Int](repeating: 0, count: threads))
        let group = DispatchGroup()
        for index in 0..<threads {
            let browser = browsers[index].poster
            DispatchQueue.global().async(group: group) {
                for step in 0..<400 {
                    guard (try? browser.select(step % 2 == 0 ? "wallet" : "home")) == 200 else { return }
                    acknowledged.withLock { $0[index] += 1 }
                }
            }
        }
        // Kill while the threads are still posting: wait for some progress, not for a time.
        while acknowledged.withLock({ $0.min() ?? 0 }) < 10 { usleep(5_000) }
        kill(server.processIdentifier, SIGKILL)
        server.waitUntilExit()
        group.wait()
        let answered = acknowledged.withLock { $0 }
        print("SIGKILL under load: answered selections per thread before the kill: \(answered)")

        let (restarted, newPort) = try launchServe(["--sessions", "sqlite:" + database])
        defer {
            restarted.terminate()
            restarted.waitUntilExit()
        }
        for (index, browser) in browsers.enumerated() {
            let after = Browser(port: newPort)
            after.cookie = browser.cookie
            let logged = try after.lastSequence() - initial[index]
            #expect(logged % perSwitch == 0, "whole switches only")
            let count = logged / perSwitch
            // Every answered change is there; at most the one in flight at the kill is extra.
            #expect(count >= answered[index] && count <= answered[index] + 1, "\(count) vs \(answered[index])")
            #expect(after.cookie == browser.cookie, "the session was kept, not replaced")
        }
    }
}
