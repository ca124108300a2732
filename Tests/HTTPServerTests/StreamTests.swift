import HTTPServer
import HTTPTesting
import Synchronization
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The streams handed out by a router, so a test can write into them.
final class StreamShelf: Sendable {
    let streams = Mutex<[ResponseStream]>([])

    var last: ResponseStream? { streams.withLock { $0.last } }

    func router() -> Router {
        var router = echoRouter()
        router.get("/stream") { [self] _, _ in
            let stream = ResponseStream(heartbeat: ServerSentEvent.heartbeat)
            streams.withLock { $0.append(stream) }
            stream.write(ServerSentEvent(name: "hello", id: "1", data: "").bytes)
            return .stream(stream, headers: ServerSentEvent.streamHeaders)
        }
        return router
    }
}

@Suite struct StreamTests {
    @Test func anEventStreamIsSentAsItIsWrittenUnbufferedAndWithoutALength() throws {
        let shelf = StreamShelf()
        try withServer(shelf.router()) { (server: Server) throws in
            let client = server.client()
            let head = try client.openStream("/stream")
            #expect(head.status == 200)
            #expect(head.header("Content-Type") == "text/event-stream; charset=utf-8")
            #expect(head.header("Cache-Control") == "no-store, no-transform")
            #expect(head.header("X-Accel-Buffering") == "no")
            #expect(head.header("Transfer-Encoding") == "chunked")
            #expect(head.header("Content-Length") == nil)
            #expect(try client.readStream(until: "\n\n") == "event: hello\nid: 1\ndata: \n\n")
            let stream = try #require(shelf.last)
            stream.write(ServerSentEvent(name: "change", id: "2", data: "two\nlines").bytes)
            #expect(try client.readStream(until: "\n\n") == "event: change\nid: 2\ndata: two\ndata: lines\n\n")
            stream.write(ServerSentEvent(data: "later").bytes)
            #expect(try client.readStream(until: "\n\n") == "data: later\n\n")
            stream.finish()
            #expect(try client.readStreamToEnd() == "")
            #expect(client.streamEnded)
            #expect(try server.client().get("/").status == 200)
        }
    }

    @Test func aSilentStreamIsSentACommentHeartbeat() throws {
        let shelf = StreamShelf()
        try withServer(shelf.router(), configure: { $0.streamLimits.heartbeatSeconds = 0.3 }) {
            (server: Server) throws in
            let client = server.client()
            _ = try client.openStream("/stream")
            _ = try client.readStream(until: "\n\n")
            let started = ContinuousClock.now
            #expect(try client.readStream(until: "\n\n") == ": heartbeat\n\n")
            #expect(ContinuousClock.now - started < .seconds(2))
        }
    }

    @Test func streamsPastTheLimitsGet503WhileOtherRequestsAreAnswered() throws {
        let shelf = StreamShelf()
        try withServer(
            shelf.router(),
            configure: {
                $0.streamLimits.maxStreams = 2
                $0.streamLimits.maxStreamsPerAddress = 10
            }
        ) { (server: Server) throws in
            let first = server.client()
            let second = server.client()
            #expect(try first.openStream("/stream").status == 200)
            #expect(try second.openStream("/stream").status == 200)
            let refused = try server.client().get("/stream")
            #expect(refused.status == 503)
            #expect(refused.header("Retry-After") == "10")
            #expect(try server.client().get("/").status == 200)
            #expect(server.openStreamCount == 2)
            // A stream that ends gives its place back.
            first.close()
            shelf.streams.withLock { $0.forEach { $0.finish() } }
            let deadline = ContinuousClock.now + .seconds(5)
            while server.openStreamCount > 0 && ContinuousClock.now < deadline { usleep(10_000) }
            #expect(try server.client().openStream("/stream").status == 200)
        }
    }

    @Test func oneAddressHoldsNoMoreStreamsThanItsLimit() throws {
        let shelf = StreamShelf()
        try withServer(shelf.router(), configure: { $0.streamLimits.maxStreamsPerAddress = 3 }) {
            (server: Server) throws in
            let clients = (0..<3).map { _ in server.client() }
            for client in clients { #expect(try client.openStream("/stream").status == 200) }
            #expect(try server.client().get("/stream").status == 503)
        }
    }

    /// What is written without waking the connection waits for `wake()`, then goes out in the
    /// order written: a fan-out writes every stream before it wakes them.
    @Test func writesThatDoNotWakeAreSentWhenTheStreamIsWoken() throws {
        let shelf = StreamShelf()
        try withServer(shelf.router()) { (server: Server) throws in
            let client = HTTPTestClient(port: server.port, timeoutSeconds: 1)
            _ = try client.openStream("/stream")
            _ = try client.readStream(until: "\n\n")
            let stream = try #require(shelf.last)
            usleep(200_000)  // the connection is suspended once hello is sent
            #expect(stream.write(ServerSentEvent(name: "one").bytes, waking: false))
            #expect(stream.write(ServerSentEvent(name: "two").bytes, waking: false))
            #expect(throws: TestClientError.self, "nothing is sent before the wake") {
                try client.readStream(until: "\n\n")
            }
            stream.wake()
            #expect(try client.readStream(until: "two\ndata: \n\n") == "event: one\ndata: \n\nevent: two\ndata: \n\n")
        }
    }

    /// A client that closes its stream gives the place back at once, not at the next heartbeat:
    /// a visitor reloading a page, or many behind one address, are not refused for its length.
    @Test func aClosedStreamGivesItsPlaceBackBeforeTheNextHeartbeat() throws {
        let shelf = StreamShelf()
        let limit = StreamLimits().maxStreamsPerAddress
        try withServer(shelf.router(), configure: { $0.streamLimits.heartbeatSeconds = 30 }) {
            (server: Server) throws in
            let clients = (0..<limit).map { _ in server.client() }
            for client in clients { #expect(try client.openStream("/stream").status == 200) }
            #expect(try server.client().get("/stream").status == 503, "the limit holds while they are open")
            for client in clients { client.close() }
            // Well inside the heartbeat: only the socket's close can have freed the places.
            let deadline = ContinuousClock.now + .seconds(5)
            while server.openStreamCount > 0 && ContinuousClock.now < deadline { usleep(10_000) }
            #expect(server.openStreamCount == 0)
            let next = server.client()
            #expect(try next.openStream("/stream").status == 200, "stream \(limit + 1) opens")
            #expect(shelf.streams.withLock { $0.prefix(limit).allSatisfy { !$0.isOpen } }, "the closed ones are over")
        }
    }

    /// From a trusted proxy, streams count against the address it forwards; from anyone else,
    /// against the connection's own address, whatever `X-Forwarded-For` says.
    @Test(arguments: [true, false])
    func streamsBehindATrustedProxyCountAgainstTheForwardedAddress(_ trusted: Bool) throws {
        let shelf = StreamShelf()
        try withServer(
            shelf.router(),
            configure: {
                $0.streamLimits.maxStreamsPerAddress = 1
                if trusted { $0.trustedProxies = AddressRange.list("127.0.0.1") ?? [] }
            }
        ) { (server: Server) throws in
            var clients: [HTTPTestClient] = []  // kept, so their streams stay open
            func open(forwardedFor visitor: String) throws -> Int {
                let client = server.client()
                clients.append(client)
                return try client.openStream("/stream", headers: [(name: "X-Forwarded-For", value: visitor)]).status
            }
            #expect(try open(forwardedFor: "203.0.113.1") == 200)
            #expect(try open(forwardedFor: "203.0.113.2") == (trusted ? 200 : 503), "another visitor")
            #expect(try open(forwardedFor: "203.0.113.1") == 503, "the first visitor's second stream")
            withExtendedLifetime(clients) {}
        }
    }

    @Test func stoppingTheServerEndsOpenStreamsCleanly() throws {
        let shelf = StreamShelf()
        var configuration = ServerConfiguration(host: "127.0.0.1", port: 0)
        configuration.accessLog = nil
        configuration.threading = .threadPool(size: 2)
        let server = Server(configuration: configuration, router: shelf.router())
        try server.start()
        let client = server.client()
        _ = try client.openStream("/stream")
        _ = try client.readStream(until: "\n\n")
        let started = ContinuousClock.now
        server.stop()
        #expect(ContinuousClock.now - started < .seconds(3))
        #expect(try client.readStreamToEnd() == "")
        #expect(client.streamEnded)
    }

    @Test func eventFieldsCannotBeSplitByLineBreaksInTheirValues() {
        let event = ServerSentEvent(name: "a\nb", id: "1\r2", data: "x\r\ny")
        #expect(String(decoding: event.bytes, as: UTF8.self) == "event: ab\nid: 12\ndata: x\ndata: y\n\n")
    }
}
