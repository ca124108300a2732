import Foundation
import HTTPServer
import HTTPTesting
import ServiceTesting
import Testing

@testable import Snapshots
@testable import TabStageApp
@testable import TabStageCLI

@Suite struct MetricsAndProxyTests {
    @Test func metricsCountRequestsByRouteClassStatusAndStoreOperation() throws {
        let (server, port) = try launchServe(["--sessions", "memory"])
        defer {
            server.terminate()
            server.waitUntilExit()
        }
        #expect(try HTTPTestClient(port: port).get("/restaurant/bottom/home").status == 200)
        #expect(try HTTPTestClient(port: port).get("/no/such/page/here").status == 404)
        #expect(try HTTPTestClient(port: port).get("/healthz").status == 200)
        // The earlier clients' connections close in the server's own time: ask again until the
        // scrape's own connection is the only one open.
        var response = try HTTPTestClient(port: port).get("/metrics")
        let deadline = Date().addingTimeInterval(10)
        while !response.text.contains("\ntabstage_open_connections 1\n"), Date() < deadline {
            Thread.sleep(forTimeInterval: 0.05)
            response = try HTTPTestClient(port: port).get("/metrics")
        }
        #expect(response.status == 200)
        #expect(response.header("Content-Type") == "text/plain; version=0.0.4; charset=utf-8")
        let lines = Set(response.text.split(separator: "\n").map(String.init))
        for expected in [
            #"tabstage_requests_total{route="page",status="200"} 1"#,
            #"tabstage_requests_total{route="page",status="404"} 1"#,
            #"tabstage_requests_total{route="health",status="200"} 1"#,
            #"tabstage_request_duration_seconds_count{route="page"} 2"#,
            #"tabstage_store_operations_total{operation="modify"} 1"#,
            #"tabstage_store_errors_total{kind="unavailable"} 0"#,
            "tabstage_live_sessions 1", "tabstage_open_connections 1", "tabstage_open_streams 0",
        ] {
            #expect(lines.contains(expected), "\(expected)")
        }
    }

    @Test func aRequestsRouteClassIsReadOffItsMethodAndPath() {
        typealias RouteClass = ServerMetrics.RouteClass
        let expected: [(String, String, RouteClass)] = [
            ("GET", "/healthz", .health), ("GET", "/healthz?probe=1", .health), ("GET", "/healthzz", .page),
            ("GET", "/metrics", .metrics), ("GET", "/metrics/x", .page),
            ("GET", "/static/css/tabstage.css", .staticFile), ("GET", "/static", .page),
            ("GET", "/icons/restaurant/home.png", .asset), ("GET", "/theme/restaurant.css", .asset),
            ("GET", "/themes", .page), ("GET", "/i", .page), ("GET", "/", .page), ("HEAD", "/h", .page),
            ("GET", "/restaurant/bottom/home", .page), ("POST", "/restaurant/bottom/home", .form),
            ("POST", "/static/x", .staticFile), ("DELETE", "/restaurant", .other), ("GET", "", .page),
        ]
        for (method, target, routeClass) in expected {
            #expect(RouteClass(method: method, target: target) == routeClass, "\(method) \(target)")
        }
    }

    @Test func openStreamsAreCountedWhileOpenAndNotAfter() throws {
        let (server, port) = try launchServe(["--sessions", "memory"])
        defer {
            server.terminate()
            server.waitUntilExit()
        }
        func openStreams() throws -> String? {
            try HTTPTestClient(port: port).get("/metrics").text.split(separator: "\n")
                .first { $0.hasPrefix("tabstage_open_streams ") }.map(String.init)
        }
        let pages = (0..<2).map { _ in HTTPTestClient(port: port) }
        for page in pages { #expect(try page.openStream("/restaurant/live").status == 200) }
        #expect(try openStreams() == "tabstage_open_streams 2")
        for page in pages { page.close() }
        let deadline = Date().addingTimeInterval(5)
        while try openStreams() != "tabstage_open_streams 0", Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
        #expect(try openStreams() == "tabstage_open_streams 0")
    }

    /// A gauge that cannot be read is left out, not reported as 0: while Redis hangs, the scrape
    /// says the store is down and answers without waiting out the store's timeout.
    @Test func aStoreThatCannotBeReadIsSaidToBeDownNotEmpty() throws {
        let redis = try RedisServer()
        defer { redis.stop() }
        let (server, port) = try launchServe(["--sessions", redis.url])
        defer {
            server.terminate()
            server.waitUntilExit()
        }
        #expect(try HTTPTestClient(port: port).get("/restaurant/bottom/home").status == 200)
        let up = try HTTPTestClient(port: port).get("/metrics").text
        #expect(up.contains("\ntabstage_store_up 1\n") && up.contains("\ntabstage_live_sessions 1\n"), "\(up)")
        redis.pause()
        defer { redis.resume() }
        let down = try HTTPTestClient(port: port).get("/metrics").text
        #expect(down.contains("\ntabstage_store_up 0\n"))
        #expect(!down.contains("tabstage_live_sessions "), "a count that could not be read: \(down)")
    }

    /// Behind a trusted proxy every request comes from the proxy's address: the visitor it
    /// forwards is the one judged, so the proxy does not open /metrics to everyone.
    @Test func behindATrustedProxyMetricsAreJudgedOnTheForwardedVisitor() throws {
        let (server, port) = try launchServe([
            "--sessions", "memory", "--trust-proxy", "127.0.0.1", "--metrics-from", "127.0.0.0/8,10.1.2.3",
        ])
        defer {
            server.terminate()
            server.waitUntilExit()
        }
        func status(forwardedFor visitor: String) throws -> Int {
            try HTTPTestClient(port: port).get("/metrics", headers: ["X-Forwarded-For": visitor]).status
        }
        #expect(try status(forwardedFor: "203.0.113.5") == 403)
        #expect(try status(forwardedFor: "10.1.2.3") == 200)
    }

    @Test func metricsAreRefusedToAddressesNotGivenByMetricsFrom() throws {
        let (server, port) = try launchServe(["--sessions", "memory", "--metrics-from", "10.1.2.3,192.168.0.0/16"])
        defer {
            server.terminate()
            server.waitUntilExit()
        }
        #expect(try HTTPTestClient(port: port).get("/metrics").status == 403)
        #expect(runCLI(["serve", "--metrics-from", "localhost"]).code == 2)
        #expect(runCLI(["serve", "--trust-proxy", "10.0.0.0/33"]).code == 2)
    }

    @Test func theRenderedHistogramIsCumulativeWithSumAndCount() {
        let metrics = ServerMetrics()
        for milliseconds in [0.2, 3, 3, 20_000] {
            metrics.record(
                AccessLogEntry(
                    method: "POST", target: "/a/b/c/action", status: 303, bodyBytes: 0,
                    durationMilliseconds: milliseconds))
        }
        let text = metrics.render()
        #expect(text.contains(#"tabstage_requests_total{route="form",status="303"} 4"#))
        #expect(text.contains(#"tabstage_request_duration_seconds_bucket{route="form",le="0.0005"} 1"#))
        #expect(text.contains(#"tabstage_request_duration_seconds_bucket{route="form",le="0.005"} 3"#))
        #expect(text.contains(#"tabstage_request_duration_seconds_bucket{route="form",le="10.0"} 3"#))
        #expect(text.contains(#"tabstage_request_duration_seconds_bucket{route="form",le="+Inf"} 4"#))
        #expect(text.contains(#"tabstage_request_duration_seconds_count{route="form"} 4"#))
        #expect(!text.contains(#"route="page""#), "no lines for a class never seen")
    }

    /// The address a trusted proxy forwards is the client; anyone else's header is ignored.
    @Test func theClientAddressComesFromXForwardedForOnlyThroughATrustedProxy() throws {
        let proxies = try #require(AddressRange.list("127.0.0.1, 10.0.0.0/8"))
        #expect(proxies.client(peer: "127.0.0.1", forwardedFor: "203.0.113.9") == "203.0.113.9")
        #expect(proxies.client(peer: "::ffff:127.0.0.1", forwardedFor: "203.0.113.9") == "203.0.113.9")
        #expect(proxies.client(peer: "127.0.0.1", forwardedFor: "198.51.100.1, 203.0.113.9, 10.2.3.4") == "203.0.113.9")
        #expect(proxies.client(peer: "127.0.0.1", forwardedFor: nil) == "127.0.0.1")
        #expect(proxies.client(peer: "127.0.0.1", forwardedFor: "junk, 10.1.1.1") == "10.1.1.1")
        #expect(proxies.client(peer: "198.51.100.7", forwardedFor: "203.0.113.9") == "198.51.100.7", "not a proxy")
        #expect(
            AccessLogEntry(
                method: "GET", target: "/", status: 200, bodyBytes: 5, durationMilliseconds: 1.5, client: "203.0.113.9"
            ).line == "203.0.113.9 GET / 200 5B 1.50ms")
        #expect(
            AccessLogEntry(method: "GET", target: "/", status: 200, bodyBytes: 5, durationMilliseconds: 1.5).line
                == "GET / 200 5B 1.50ms")
        #expect(AddressRange("::1")?.contains("::1") == true)
        #expect(AddressRange("127.0.0.0/8")?.contains("127.9.9.9") == true)
        #expect(AddressRange("127.0.0.0/8")?.contains("128.0.0.1") == false)
        #expect(AddressRange("localhost") == nil)
    }

    /// Start-up against a Redis nobody runs: a clear message, exit 1, at once; the password
    /// given in the URL is in no output.
    @Test func anUnreachableRedisAtStartIsAClearErrorWithoutThePassword() throws {
        let port = try FreePort.pick()
        let started = Date()
        let result = runCLI(["serve", "--port", "0", "--sessions", "redis://:hunter2@127.0.0.1:\(port)/1"])
        #expect(result.code == 1)
        #expect(result.err.contains("cannot use Redis at redis://127.0.0.1:\(port)/1"))
        #expect(!result.err.contains("hunter2") && !result.out.contains("hunter2"))
        #expect(Date().timeIntervalSince(started) < 5, "no hang")
        let malformed = runCLI(["serve", "--sessions", "redis://:hunter2@127.0.0.1:notaport"])
        #expect(malformed.code == 2)
        #expect(malformed.err.contains("redis://127.0.0.1:notaport"))
        #expect(!malformed.err.contains("hunter2"))
        #expect(runCLI(["serve", "--redis-prefix", "x:"]).code == 2, "a prefix without Redis")
        let cacheWithoutRedis = runCLI(["serve", "--redis-cache", "0"])
        #expect(cacheWithoutRedis.code == 2 && cacheWithoutRedis.err.contains("--redis-cache only applies to"))
        let negativeCache = runCLI(["serve", "--sessions", "redis://127.0.0.1", "--redis-cache", "-1"])
        #expect(negativeCache.code == 2 && negativeCache.err.contains("--redis-cache must be a number"))
        #expect(runCLI(["serve", "--deterministic", "--sessions", "redis://127.0.0.1"]).code == 2)
    }

    @Test func theRedisPasswordComesFromTheEnvironmentWhenTheURLHasNone() throws {
        let parsed = try ParsedArguments(
            ["--sessions", "redis://db:7000", "--redis-prefix", "demo:", "--redis-cache", "0"],
            options: ServeCommand.options)
        let option = try ServeCommand.sessionOption(parsed, environment: ["TABSTAGE_REDIS_PASSWORD": "s3cret"])
        guard case .redis(let settings) = option else {
            Issue.record("not redis: \(option)")
            return
        }
        #expect(settings.endpoint.password == "s3cret")
        #expect(settings.keyPrefix == "demo:")
        #expect(settings.cachedSessions == 0)
        #expect(!ServeCommand.usage.contains("s3cret"))
    }
}
