import Dispatch
import HTTPServer
import HTTPTesting
import Synchronization
import Testing

@Suite struct LifecycleTests {
    @Test func keepAliveReusesOneConnection() throws {
        try withServer(echoRouter()) { (server: Server) throws in
            let client = server.client(keepAlive: true)
            for index in 0..<5 {
                let response = try client.get("/query?i=\(index)")
                #expect(response.text == "i=\(index)")
                #expect(!response.closesConnection)
            }
            #expect(client.connectionsOpened == 1)
        }
    }

    @Test func stopWaitsForTheRequestInFlight() throws {
        let entered = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        var router = Router()
        router.get("/slow") { _, _ in
            entered.signal()
            // Held until stop() has begun, so the request is certainly in flight when it starts.
            _ = release.wait(timeout: .now() + 10)
            return .text("finished")
        }
        var configuration = ServerConfiguration(host: "127.0.0.1", port: 0)
        configuration.accessLog = nil
        let server = Server(configuration: configuration, router: router)
        try server.start()
        let port = server.port
        let result = Mutex<String?>(nil)
        let clientDone = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            let text = (try? HTTPTestClient(port: port).get("/slow")).map { "\($0.status) \($0.text)" }
            result.withLock { $0 = text ?? "failed" }
            clientDone.signal()
        }
        #expect(entered.wait(timeout: .now() + 10) == .success)
        let stopped = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            server.stop()
            stopped.signal()
        }
        // stop() must not return while the handler is still running.
        #expect(stopped.wait(timeout: .now() + 0.3) == .timedOut)
        release.signal()
        #expect(stopped.wait(timeout: .now() + 10) == .success)
        #expect(clientDone.wait(timeout: .now() + 10) == .success)
        #expect(result.withLock { $0 } == "200 finished")
        #expect(!server.isRunning)
        #expect(throws: TestClientError.self) { try HTTPTestClient(port: port).get("/slow") }
    }

    @Test func accessLogGetsOneEntryPerRequest() throws {
        let entries = Mutex<[AccessLogEntry]>([])
        try withServer(
            echoRouter(), configure: { config in config.accessLog = { entry in entries.withLock { $0.append(entry) } } }
        ) {
            server in
            _ = try server.client().get("/query?x=1")
            _ = try server.client().get("/missing")
        }
        let logged = entries.withLock { $0 }
        #expect(logged.count == 2)
        #expect(logged.first?.method == "GET")
        #expect(logged.first?.target == "/query?x=1")
        #expect(logged.first?.status == 200)
        #expect(logged.first?.bodyBytes == 3)
        #expect(logged.last?.status == 404)
        #expect(logged.allSatisfy { $0.durationMilliseconds >= 0 })
        let line = AccessLogEntry(method: "GET", target: "/a", status: 200, bodyBytes: 12, durationMilliseconds: 1.234)
            .line
        #expect(line == "GET /a 200 12B 1.23ms")
    }

    @Test func aPortInUseIsAClearError() throws {
        try withServer(echoRouter()) { (server: Server) throws in
            let second = Server(
                configuration: ServerConfiguration(host: "127.0.0.1", port: server.port), router: Router())
            #expect(throws: ServerError.self) { try second.start() }
            #expect(try server.client().get("/").status == 200)
        }
        #expect(throws: ServerError.invalidHost("example.invalid")) {
            try Server(configuration: ServerConfiguration(host: "example.invalid", port: 0), router: Router()).start()
        }
    }

    @Test func threadPerConnectionModeServesToo() throws {
        try withServer(
            echoRouter(),
            configure: {
                $0.threading = .threadPerConnection; $0.turbo = false
            }
        ) { (server: Server) throws in
            let client = server.client(keepAlive: true)
            #expect(try client.get("/").status == 200)
            #expect(try client.get("/").status == 200)
            #expect(client.connectionsOpened == 1)
        }
    }
}
