import HTTPServer
import HTTPTesting
import Testing

/// Headers checked once with `checked()` are sent without the per-response check; anything
/// that would have failed it must still end as a 500, and a change after the check must be
/// checked again.
@Suite struct CheckedHeadersTests {
    static let plain = (["Content-Type": "text/plain"] as HTTPHeaders).checked()
    static let unsafe = (["Content-Type": "text/plain", "X-Bad": "a\r\nInjected: yes"] as HTTPHeaders).checked()

    func router() -> Router {
        var router = Router()
        router.get("/checked") { _, _ in Response(headers: Self.plain, body: Array("ok".utf8)) }
        router.get("/unsafe") { _, _ in Response(headers: Self.unsafe, body: Array("no".utf8)) }
        router.get("/changed") { _, _ in
            var response = Response(headers: Self.plain, body: Array("no".utf8))
            response.headers["X-Bad"] = "a\nInjected: yes"
            return response
        }
        return router
    }

    @Test func checkedHeadersSayNosniffAndEqualTheirFields() {
        #expect(Self.plain["X-Content-Type-Options"] == "nosniff")
        #expect(Self.plain == ["Content-Type": "text/plain", "X-Content-Type-Options": "nosniff"])
    }

    @Test func checkedHeadersAreSentAsTheyAre() throws {
        try withServer(router()) { (server: Server) throws in
            let response = try server.client().get("/checked")
            #expect(response.status == 200)
            #expect(response.text == "ok")
            #expect(response.header("Content-Type") == "text/plain")
            #expect(response.header("X-Content-Type-Options") == "nosniff")
        }
    }

    @Test(arguments: ["/unsafe", "/changed"])
    func headersThatFailTheCheckStillAnswer500(path: String) throws {
        try withServer(router()) { (server: Server) throws in
            let response = try server.client().get(path)
            #expect(response.status == 500)
            #expect(response.header("Injected") == nil)
            #expect(try server.client().get("/checked").status == 200)
        }
    }
}
