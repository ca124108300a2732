import HTTPServer
import HTTPTesting
import Testing

@Suite struct LimitsTests {
    @Test func bodiesOverTheLimitGet413() throws {
        try withServer(echoRouter(), configure: { $0.maxBodyBytes = 1024 }) { (server: Server) throws in
            let client = server.client()
            let small = [UInt8](repeating: 0x41, count: 1000)
            let echoed = try client.post("/echo", body: small, contentType: "application/octet-stream")
            #expect(echoed.status == 200)
            #expect(echoed.body == small)
            let large = try client.post(
                "/echo", body: [UInt8](repeating: 0x42, count: 3000), contentType: "application/octet-stream")
            #expect(large.status == 413)
            let announced = try client.send(
                raw: "POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 50000000\r\nExpect: 100-continue\r\n\r\n")
            #expect(announced.status == 413)
            #expect(try server.client().get("/").status == 200)
        }
    }

    @Test func chunkedBodiesOverTheLimitGet413() throws {
        try withServer(echoRouter(), configure: { $0.maxBodyBytes = 100 }) { (server: Server) throws in
            let chunk = String(repeating: "z", count: 80)
            let raw =
                "POST /echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n"
                + "50\r\n\(chunk)\r\n50\r\n\(chunk)\r\n0\r\n\r\n"
            #expect(try server.client().send(raw: raw).status == 413)
        }
    }

    @Test func longURIGets414() throws {
        try withServer(echoRouter()) { (server: Server) throws in
            let response = try server.client().get("/query?q=" + String(repeating: "a", count: 40_000))
            #expect(response.status == 414)
            #expect(try server.client().get("/").status == 200)
        }
    }

    @Test func hugeHeadersGet431() throws {
        try withServer(echoRouter()) { (server: Server) throws in
            let response = try server.client().get("/", headers: ["X-Big": String(repeating: "b", count: 40_000)])
            #expect(response.status == 431)
            #expect(try server.client().get("/").status == 200)
        }
    }

    /// The default pool is small, but not smaller than nginx's 8 KB header buffers: a URI of 8 KB
    /// and a header field of 8 KB are still answered. libmicrohttpd 0.9.75 copies the Cookie
    /// field into the pool to parse it, so a Cookie must fit twice: one of 7 KB (more than a
    /// browser's 4 KB per cookie) is answered.
    @Test func eightKilobyteURIsAndHeadersAreServed() throws {
        try withServer(echoRouter()) { (server: Server) throws in
            let query = String(repeating: "a", count: 8 * 1024)
            let long = try server.client().get("/query?q=" + query)
            #expect(long.status == 200)
            #expect(long.body.count == "q=".utf8.count + query.utf8.count)
            let field = String(repeating: "h", count: 8 * 1024)
            let big = try server.client().get("/header", headers: ["X-Custom-Thing": field])
            #expect(big.status == 200)
            #expect(big.body.count == field.utf8.count)
            let cookie = String(repeating: "c", count: 7 * 1024)
            let cookies = try server.client().get("/cookies", headers: ["Cookie": "big=" + cookie])
            #expect(cookies.status == 200)
            #expect(cookies.body.count == "big=".utf8.count + cookie.utf8.count)
        }
    }

    @Test(arguments: [
        "GET / HTTP/1.1\r\nno colon here\r\n\r\n", "GET / FOO/1.1\r\n\r\n", "GET  HTTP/1.1\r\nHost: x\r\n\r\n",
        "GET /a b HTTP/1.1\r\nHost: x\r\n\r\n", "GET / HTTP/1.1\r\nHost: x\r\nContent-Length: abc\r\n\r\n",
        "GET / HTTP/1.1\r\n\r\n",
    ])
    func malformedRequestsGet400AndTheServerKeepsServing(raw: String) throws {
        try withServer(echoRouter()) { (server: Server) throws in
            let response = try server.client().send(raw: raw)
            #expect(response.status == 400)
            #expect(try server.client().get("/").status == 200)
        }
    }

    /// libmicrohttpd 0.9.75 closes the connection without any answer when the request line has no
    /// target at all; nothing reaches the access handler, so this is the documented behaviour.
    @Test(arguments: ["GARBAGE\r\n\r\n", "GET\r\n\r\n"])
    func unparseableRequestLinesCloseTheConnectionAndTheServerKeepsServing(raw: String) throws {
        try withServer(echoRouter()) { (server: Server) throws in
            #expect(throws: TestClientError.closedBeforeResponse) { try server.client().send(raw: raw) }
            #expect(try server.client().get("/").status == 200)
        }
    }
}
