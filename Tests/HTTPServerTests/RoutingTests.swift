import HTTPServer
import HTTPTesting
import Testing

@Suite struct RoutingTests {
    @Test func routesByPathAndCapturesParameters() throws {
        try withServer(echoRouter()) { (server: Server) throws in
            let client = server.client()
            let home = try client.get("/")
            #expect(home.status == 200)
            #expect(home.header("content-type") == "text/html; charset=utf-8")
            #expect(home.text == "<p>home</p>")
            let icon = try client.get("/icons/heart%20fill/selected.png")
            #expect(icon.status == 200)
            #expect(icon.text == "name=heart fill file=selected.png")
        }
    }

    @Test func unknownPathIs404AndWrongMethodIs405WithAllow() throws {
        try withServer(echoRouter()) { (server: Server) throws in
            let client = server.client()
            #expect(try client.get("/nope").status == 404)
            #expect(try client.get("/icons/only-one").status == 404)
            let wrongMethod = try client.request("DELETE", "/form")
            #expect(wrongMethod.status == 405)
            #expect(wrongMethod.header("Allow") == "POST")
            let postToGet = try client.post("/", form: ["a": "b"])
            #expect(postToGet.status == 405)
            #expect(postToGet.header("Allow") == "GET, HEAD")
        }
    }

    @Test func headAnswersFromGetWithLengthButNoBody() throws {
        try withServer(echoRouter()) { (server: Server) throws in
            let client = server.client(keepAlive: true)
            let head = try client.head("/")
            #expect(head.status == 200)
            #expect(head.header("Content-Length") == "11")
            #expect(head.body.isEmpty)
            // Were any body bytes sent after the HEAD response, this GET would read them as its status line.
            let get = try client.get("/")
            #expect(get.status == 200)
            #expect(get.text == "<p>home</p>")
            #expect(client.connectionsOpened == 1)
        }
    }

    @Test func handlerErrorsBecomeStatusPagesNotCrashes() throws {
        try withServer(echoRouter()) { (server: Server) throws in
            let client = server.client()
            let failure = try client.get("/fail")
            #expect(failure.status == 500)
            #expect(failure.text.contains("500 Internal Server Error"))
            let teapot = try client.get("/teapot")
            #expect(teapot.status == 418)
            #expect(teapot.text.contains("short and stout"))
            #expect(try client.get("/").status == 200)
        }
    }

    @Test func remainderCapturesTheRestOfThePath() throws {
        try withServer(echoRouter()) { (server: Server) throws in
            let response = try server.client().get("/path/a/b%20c/d")
            #expect(response.text == "path=/path/a/b c/d rest=a/b c/d")
        }
    }

    @Test func headersAreCaseInsensitiveAndRemoteAddressIsKnown() throws {
        try withServer(echoRouter()) { (server: Server) throws in
            let client = server.client()
            #expect(try client.get("/header", headers: ["X-CUSTOM-THING": "yes"]).text == "yes")
            #expect(try client.get("/remote").text == "127.0.0.1")
        }
    }

    @Test func routerWorksWithoutASocket() throws {
        let router = echoRouter()
        let request = try Request(method: .get, target: "/icons/a/b.png")
        #expect(router.respond(to: request).body == Array("name=a file=b.png".utf8))
        let unknownMethod = try Request(method: HTTPMethod("BREW"), target: "/")
        #expect(router.respond(to: unknownMethod).status == .methodNotAllowed)
    }
}
