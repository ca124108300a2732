import Foundation
import HTTPServer
import HTTPTesting
import ServiceTesting
import Synchronization
import Testing
import Views

@testable import Snapshots
@testable import TabStageApp
@testable import TabStageCLI

#if canImport(Glibc)
    import Glibc
#endif

/// Several `tabstage serve` processes on one Redis of the test's own: any instance serves any
/// visitor, and nothing answered is lost when an instance or Redis goes away.
@Suite struct SeveralInstancesTests {
    /// One browser that may send each request to another port: its cookie and form token.
    final class Browser: @unchecked Sendable {
        var cookie = ""
        var token = ""

        @discardableResult
        func get(_ port: UInt16, _ path: String) throws -> TestResponse {
            keep(try HTTPTestClient(port: port).get(path, headers: ["Cookie": cookie]))
        }

        @discardableResult
        func post(_ port: UInt16, _ path: String, _ form: [(String, String)]) throws -> TestResponse {
            var fields = form
            fields.append((CSRFField.name, token))
            let body = fields.map { PercentDecoding.encode($0.0) + "=" + PercentDecoding.encode($0.1) }
                .joined(separator: "&")
            return keep(
                try HTTPTestClient(port: port).post(
                    path, body: Array(body.utf8), contentType: "application/x-www-form-urlencoded",
                    headers: ["Cookie": cookie]))
        }

        private func keep(_ response: TestResponse) -> TestResponse {
            if let set = response.header("Set-Cookie"), let pair = set.split(separator: ";").first {
                cookie = String(pair)
            }
            if let found = FormToken.csrfToken(in: response.body) { token = found }
            return response
        }
    }

    /// A `serve` process, stopped (SIGTERM, or SIGKILL when already killed) when dropped.
    final class Instance {
        let process: Process
        let port: UInt16

        init(_ arguments: [String]) throws {
            (process, port) = try launchServe(arguments)
        }

        deinit { stop() }

        func stop() {
            if process.isRunning { process.terminate() }
            process.waitUntilExit()
        }

        func kill() {
            if process.isRunning { Glibc.kill(process.processIdentifier, SIGKILL) }
            process.waitUntilExit()
        }
    }

    /// The counter on the restaurant's home tab, as the page shows it.
    static func counter(in page: TestResponse) -> Int? {
        let text = page.text
        // The element's attributes may grow (`data-announce`); its text is the count.
        guard let start = text.range(of: "<p class=\"balance\""),
            let end = text[start.upperBound...].firstIndex(of: ">")
        else { return nil }
        return Int(text[text.index(after: end)...].prefix { $0.isNumber })
    }

    @Test func aTabSelectedOnOneInstanceIsSelectedOnTheOther() throws {
        let redis = try RedisServer()
        let first = try Instance(["--sessions", redis.url])
        let second = try Instance(["--sessions", redis.url])
        let browser = Browser()
        #expect(try browser.get(first.port, "/restaurant/bottom/wallet").status == 200)
        let entry = try browser.get(second.port, "/restaurant/bottom")
        #expect(entry.status == 302 || entry.status == 303)
        #expect(entry.header("Location") == "/restaurant/bottom/wallet")
    }

    @Test func counterActionsAlternatingBetweenTwoInstancesCountExactly() throws {
        let redis = try RedisServer()
        let instances = [try Instance(["--sessions", redis.url]), try Instance(["--sessions", redis.url])]
        let browser = Browser()
        #expect(Self.counter(in: try browser.get(instances[0].port, "/restaurant/bottom/home")) == 0)
        for step in 0..<12 {
            let port = instances[step % 2].port
            #expect(try browser.post(port, "/restaurant/bottom/home/action", [("action", "increment")]).status == 303)
        }
        #expect(Self.counter(in: try browser.get(instances[1].port, "/restaurant/bottom/home")) == 12)
        #expect(Self.counter(in: try browser.get(instances[0].port, "/restaurant/bottom/home")) == 12)
    }

    @Test func aVisitorLoggedInOnOneInstanceGetsTheLoginOnlyTabFromTheOther() throws {
        let redis = try RedisServer()
        let first = try Instance(["--sessions", redis.url])
        let second = try Instance(["--sessions", redis.url])
        let stranger = try Browser().get(second.port, "/restaurant/bottom/membership")
        #expect(!stranger.text.contains("Ada Lovelace"))
        let browser = Browser()
        try browser.get(first.port, "/login")
        let loggedIn = try browser.post(
            first.port, "/login", [("name", "Ada Lovelace"), ("next", "/restaurant/bottom/membership")])
        #expect(loggedIn.status == 303)
        let page = try browser.get(second.port, "/restaurant/bottom/membership")
        #expect(page.status == 200)
        #expect(page.text.contains("Ada Lovelace"))
        #expect(page.text != stranger.text)
    }

    /// A writer alternates its changes between A and B; A is killed under it. Every change that
    /// got an answer, from either instance, is what B shows afterwards.
    @Test func everyAnsweredChangeIsOnTheOtherInstanceAfterOneIsKilled() throws {
        let redis = try RedisServer()
        let first = try Instance(["--sessions", redis.url])
        let second = try Instance(["--sessions", redis.url])
        let browser = Browser()
        #expect(try browser.get(first.port, "/restaurant/bottom/home").status == 200)
        let ports = [first.port, second.port]
        let acknowledged = Atomic<Int>(0)
        let done = DispatchSemaphore(value: 0)
        let killed = DispatchSemaphore(value: 0)
        let writer = browser
        DispatchQueue.global().async {
            defer { done.signal() }
            for step in 0..<20 {
                // The kill lands somewhere in steps 5 to 10, often with a request in flight; the
                // writer never runs out of steps before it, however the threads are scheduled.
                if step == 10 { killed.wait() }
                let response = try? writer.post(
                    ports[step % 2], "/restaurant/bottom/home/action", [("action", "increment")])
                guard response?.status == 303 else { return }
                acknowledged.wrappingAdd(1, ordering: .relaxed)
            }
        }
        // Kill while the writer is still going: after some progress, not after a time.
        while acknowledged.load(ordering: .relaxed) < 5 { usleep(2_000) }
        first.kill()
        killed.signal()
        done.wait()
        let answered = acknowledged.load(ordering: .relaxed)
        let shown = try #require(Self.counter(in: try browser.get(second.port, "/restaurant/bottom/home")))
        // At most the one change in flight at the kill is extra: committed, its answer lost.
        #expect(shown >= answered && shown <= answered + 1, "\(shown) shown, \(answered) answered")
        #expect(answered < 20, "the kill came while the writer was going")
    }

    /// Reloads, a live refresh, the app list and the health check change no session: Redis is
    /// sent no write for them (a tab switch, which changes the session, is).
    @Test func aRequestThatChangesNothingWritesNothingToRedis() throws {
        let redis = try RedisServer()
        let instance = try Instance(["--sessions", redis.url])
        let browser = Browser()
        try browser.get(instance.port, "/restaurant/bottom/wallet")
        let before = try redis.writeCount()
        for _ in 0..<3 { #expect(try browser.get(instance.port, "/restaurant/bottom/wallet").status == 200) }
        let refreshed = try HTTPTestClient(port: instance.port).get(
            "/restaurant/bottom/wallet", headers: ["Cookie": browser.cookie, "X-TabStage-Live": "1"])
        #expect(refreshed.status == 200)
        #expect(try browser.get(instance.port, "/").status == 200)
        #expect(try HTTPTestClient(port: instance.port).get("/healthz").status == 200)
        #expect(try redis.writeCount() == before)
        try browser.get(instance.port, "/restaurant/bottom/home")
        #expect(try redis.writeCount() > before, "the switch is written")
    }

    /// Redis stopped: pages and changes answer 503 and `/healthz` is not 200, the server keeps
    /// running; Redis started again on its append-only file: every answered change is there
    /// and service resumes by itself.
    @Test func redisStoppedAnswers503AndOnRestartServiceResumesWithEveryChange() throws {
        let redis = try RedisServer()
        let instance = try Instance(["--sessions", redis.url])
        let browser = Browser()
        try browser.get(instance.port, "/restaurant/bottom/home")
        for _ in 0..<5 {
            #expect(
                try browser.post(instance.port, "/restaurant/bottom/home/action", [("action", "increment")]).status
                    == 303)
        }
        #expect(try HTTPTestClient(port: instance.port).get("/healthz").status == 200)
        redis.stop()
        #expect(try browser.get(instance.port, "/restaurant/bottom/home").status == 503)
        #expect(
            try browser.post(instance.port, "/restaurant/bottom/home/action", [("action", "increment")]).status == 503)
        #expect(try Browser().get(instance.port, "/restaurant/bottom/wallet").status == 503, "a new visitor too")
        #expect(try HTTPTestClient(port: instance.port).get("/healthz").status == 503)
        #expect(instance.process.isRunning)

        try redis.start()
        let resumed = Date()
        try waitUntil { (try? HTTPTestClient(port: instance.port).get("/healthz").status) == 200 }
        #expect(Date().timeIntervalSince(resumed) < 5, "resumed within seconds")
        #expect(Self.counter(in: try browser.get(instance.port, "/restaurant/bottom/home")) == 5)
        #expect(
            try browser.post(instance.port, "/restaurant/bottom/home/action", [("action", "increment")]).status == 303)
        #expect(Self.counter(in: try browser.get(instance.port, "/restaurant/bottom/home")) == 6)
    }

    /// Redis hung (stopped, its connections open): opening another tab answers 503 within the
    /// command timeout, and when Redis goes on and runs what it was sent meanwhile, the
    /// selection has not landed: the event log has no step toward that tab.
    @Test func aHungRedisAnswers503AndTheChangeDoesNotLandWhenItGoesOn() throws {
        let redis = try RedisServer()
        let instance = try Instance(["--sessions", redis.url])
        let browser = Browser()
        try browser.get(instance.port, "/restaurant/bottom/home")
        try browser.get(instance.port, "/restaurant/bottom/home")
        redis.pause()
        #expect(try browser.get(instance.port, "/restaurant/bottom/wallet").status == 503)
        redis.resume()
        try waitUntil { (try? HTTPTestClient(port: instance.port).get("/healthz").status) == 200 }
        let log = try browser.get(instance.port, "/restaurant/events.json")
        #expect(log.status == 200)
        // Wallet's child is made with the container at the first display; no step selects it.
        #expect(
            !log.text.contains("guard wallet") && !log.text.contains("addChild wallet"),
            "the refused selection is not in the log: \(log.text)")
        #expect(Self.selectedTab(in: try browser.get(instance.port, "/restaurant/bottom/wallet").text) == "wallet")
    }

    /// The tab the bar marks as the current page.
    static func selectedTab(in page: String) -> String? {
        let tags = page.split(separator: "<").filter { $0.hasPrefix("a ") && $0.contains("aria-current=\"page\"") }
        guard let tag = tags.first(where: { $0.contains("data-tab=\"") }),
            let start = tag.range(of: "data-tab=\"")?.upperBound
        else { return nil }
        return String(tag[start...].prefix { $0 != "\"" })
    }

    /// The follow link on the presenter's page of `port`, after presenting the restaurant there.
    static func present(_ presenter: Browser, on port: UInt16) throws -> String {
        try presenter.get(port, "/restaurant/bottom/home")
        #expect(try presenter.post(port, "/restaurant/present", [("layout", "bottom")]).status == 303)
        return try followPath(in: try presenter.get(port, "/restaurant/bottom/home"))
    }

    /// A follower's page and stream on `followerPort`, a presenter on `presenterPort()`: the
    /// page shows the presenter's tab, each tap reaches the stream within a second, and stopping
    /// ends it; the link then says so.
    static func follow(presenterPort: () -> UInt16, followerPort: UInt16) throws {
        let presenter = Browser()
        let path = try present(presenter, on: presenterPort())
        let followed = try HTTPTestClient(port: followerPort).get(path)
        #expect(followed.status == 200, "the code is known where the follower is")
        let stream = HTTPTestClient(port: followerPort, timeoutSeconds: 5)
        #expect(try stream.openStream(path + "/live", headers: [("Accept", "text/event-stream")]).status == 200)
        _ = try stream.readStream(until: "event: hello")
        _ = try stream.readStream(until: "\n\n")
        for tab in ["news", "wallet"] {
            let tapped = Date()
            try presenter.get(presenterPort(), "/restaurant/bottom/" + tab)
            #expect(try stream.readStream(until: "\n\n").contains("event: change"))
            #expect(Date().timeIntervalSince(tapped) < 1, "heard within a second")
            let page = try HTTPTestClient(port: followerPort).get(path).text
            #expect(Self.selectedTab(in: page) == tab)
        }
        #expect(try presenter.post(presenterPort(), "/restaurant/present/stop", []).status == 303)
        #expect(try stream.readStream(until: "event: ended\ndata: \n\n").contains("event: ended"))
        let ended = try HTTPTestClient(port: followerPort).get(path)
        #expect(ended.status == 404)
        #expect(ended.text.contains("This presentation has ended, or its link was withdrawn."))
    }

    /// Two windows of one visitor on two instances: a tap served by B reaches the stream A holds
    /// for the other window within a second (the notice goes through Redis pub/sub).
    @Test func twoWindowsOnTwoInstancesStayInStep() throws {
        let redis = try RedisServer()
        let first = try Instance(["--sessions", redis.url])
        let second = try Instance(["--sessions", redis.url])
        let browser = Browser()
        try browser.get(first.port, "/restaurant/bottom/home")
        let stream = HTTPTestClient(port: first.port, timeoutSeconds: 5)
        let head = try stream.openStream("/restaurant/live", headers: [("Cookie", browser.cookie)])
        #expect(head.status == 200)
        _ = try stream.readStream(until: "event: hello")
        _ = try stream.readStream(until: "\n\n")
        let tapped = Date()
        try browser.get(second.port, "/restaurant/bottom/wallet")
        #expect(try stream.readStream(until: "\n\n").contains("event: change"))
        #expect(Date().timeIntervalSince(tapped) < 1, "heard within a second")
    }

    @Test func aFollowerOnOneInstanceFollowsAPresenterOnTheOther() throws {
        let redis = try RedisServer()
        let first = try Instance(["--sessions", redis.url])
        let second = try Instance(["--sessions", redis.url])
        try Self.follow(presenterPort: { first.port }, followerPort: second.port)
    }

    /// A follow code lives as long as the presenter's session: a presenter who keeps tapping
    /// (no live stream, no follower looking) past the idle timeout is still followed.
    @Test func aPresenterWhoKeepsTappingKeepsTheFollowCodePastTheIdleTimeout() throws {
        let redis = try RedisServer()
        let instance = try Instance(["--sessions", redis.url, "--session-idle-timeout", "1"])
        let presenter = Browser()
        #expect(try presenter.get(instance.port, "/restaurant/bottom/home").status == 200)
        #expect(try presenter.post(instance.port, "/restaurant/present", [("layout", "bottom")]).status == 303)
        let path = try followPath(in: try presenter.get(instance.port, "/restaurant/bottom/home"))
        for step in 0..<8 {
            usleep(300_000)
            let tab = step % 2 == 0 ? "news" : "home"
            #expect(try presenter.get(instance.port, "/restaurant/bottom/\(tab)").status == 200)
        }
        // 2.4 s after the code was set, three idle timeouts: the session lives, so does its code.
        #expect(try Browser().get(instance.port, path).status == 200)
    }

    /// Through nginx round-robin over two instances, the presenter's requests and the
    /// follower's land wherever nginx sends them.
    @Test func aFollowerThroughNginxFollowsAPresenterThroughNginx() throws {
        let redis = try RedisServer()
        let instances = try Self.proxiedInstances(2, redis)
        let nginx = try Self.balancer(over: instances)
        try Self.follow(presenterPort: { nginx.port }, followerPort: nginx.port)
    }

    /// Instances behind nginx as the docs run them: on one Redis, trusting nginx's address.
    static func proxiedInstances(_ count: Int, _ redis: RedisServer, _ extra: [String] = []) throws -> [Instance] {
        try (0..<count).map { _ in
            try Instance(
                ["--sessions", redis.url, "--max-connections-per-ip", "1000", "--trust-proxy", "127.0.0.1"] + extra)
        }
    }

    /// nginx from the sample config, round-robin over `instances`.
    static func balancer(over instances: [Instance]) throws -> NginxServer {
        let sample = try String(
            contentsOf: StageServer.repositoryRoot.appendingPathComponent("examples/nginx/tabstage.conf"),
            encoding: .utf8)
        return try NginxServer(sampleConfig: sample, upstreamPorts: instances.map(\.port))
    }

    /// Behind nginx every visitor arrives from nginx's address. Trusting it, an instance counts
    /// live pages per address by the visitor's address nginx forwards: more visitors than one
    /// address's limit each keep a live page, and one visitor is still held to the limit.
    @Test func behindNginxThePerAddressStreamLimitCountsEachVisitor() throws {
        let redis = try RedisServer()
        let instances = try Self.proxiedInstances(1, redis, ["--max-streams-per-ip", "4"])
        let nginx = try Self.balancer(over: instances)
        var clients: [HTTPTestClient] = []  // kept, so their streams stay open
        func openStream(as visitor: String) throws -> Int {
            let client = HTTPTestClient(port: nginx.port, timeoutSeconds: 5)
            clients.append(client)
            return try client.openStream("/restaurant/live", headers: [("X-Forwarded-For", visitor)]).status
        }
        for visitor in 1...10 { #expect(try openStream(as: "203.0.113.\(visitor)") == 200, "visitor \(visitor)") }
        for window in 1...3 { #expect(try openStream(as: "203.0.113.1") == 200, "window \(window + 1)") }
        #expect(try openStream(as: "203.0.113.1") == 503, "a fifth window of one visitor")
        withExtendedLifetime(clients) {}
    }

    /// One scripted visit, step by step: both demos, a page action, log-in and log-out.
    static let visit: [(method: String, path: String, form: [(String, String)])] = [
        ("GET", "/", []), ("GET", "/restaurant/bottom/home", []), ("GET", "/restaurant/bottom/finding", []),
        ("GET", "/restaurant/bottom/wallet", []), ("POST", "/restaurant/bottom/home/action", [("action", "increment")]),
        ("GET", "/restaurant/bottom/home", []), ("GET", "/restaurant/vertical", []),
        ("GET", "/restaurant/vertical/wallet", []), ("GET", "/restaurant/bottom/membership", []),
        ("GET", "/vertical/bottom/inbox", []), ("GET", "/vertical/bottom/discover", []),
        ("GET", "/vertical/bottom/favorites", []),
        ("POST", "/vertical/bottom/favorites/action", [("action", "toggle"), ("item", "park")]),
        ("GET", "/vertical/bottom/favorites", []), ("GET", "/vertical/vertical/favorites", []),
        ("GET", "/login", []), ("POST", "/login", [("name", "Grace"), ("next", "/vertical/bottom/personal-center")]),
        ("GET", "/vertical/bottom/personal-center", []), ("GET", "/restaurant/bottom/membership", []),
        ("POST", "/logout", []), ("GET", "/vertical/bottom/personal-center", []), ("GET", "/nowhere", []),
    ]

    /// The visit's answers as text to compare: status, the headers but `Date` (and the
    /// transport's own: `Server`, `Connection`, `Keep-Alive`), and the body, with this visitor's token and cookie written as names.
    static func walk(_ ports: () -> UInt16) throws -> [String] {
        let browser = Browser()
        var answers: [String] = []
        for step in visit {
            let response =
                step.method == "GET"
                ? try browser.get(ports(), step.path) : try browser.post(ports(), step.path, step.form)
            let skipped: Set<String> = ["date", "server", "connection", "keep-alive"]
            var text = "\(step.method) \(step.path) \(response.status)\n"
            // nginx passes every field on but may reorder them: compared as a sorted list.
            text += response.headers.filter { !skipped.contains($0.name.lowercased()) }
                .map { "\($0.name): \($0.value)\n" }.sorted().joined()
            text += response.text
            if !browser.token.isEmpty { text = text.replacingOccurrences(of: browser.token, with: "TOKEN") }
            if let id = browser.cookie.split(separator: "=").last {
                text = text.replacingOccurrences(of: String(id), with: "SESSION")
            }
            answers.append(text)
        }
        return answers
    }

    /// nginx from the sample config, round-robin over three instances: a visitor walking both
    /// demos sees exactly the pages one instance alone serves.
    @Test func throughNginxOverThreeInstancesEveryPageIsTheSameAsFromOne() throws {
        let redis = try RedisServer()
        let instances = try Self.proxiedInstances(3, redis)
        let nginx = try Self.balancer(over: instances)
        let alone = try Self.walk { instances[0].port }
        let balanced = try Self.walk { nginx.port }
        #expect(balanced.count == alone.count)
        for (through, direct) in zip(balanced, alone) { #expect(through == direct) }
        #expect(alone.contains { $0.contains("Grace") }, "the visit logged in")
        for instance in instances {
            let metrics = try HTTPTestClient(port: instance.port).get("/metrics").text
            #expect(metrics.contains("tabstage_requests_total{route=\"page\",status=\"200\"}"), "each served pages")
        }
    }
}

/// Polls `condition` every 20 ms for up to `seconds` (generous: the machine may be loaded).
func waitUntil(seconds: Double = 20, _ condition: () -> Bool) throws {
    let deadline = Date().addingTimeInterval(seconds)
    while !condition() {
        guard Date() < deadline else {
            Issue.record("timed out waiting")
            throw CancellationError()
        }
        usleep(20_000)
    }
}
