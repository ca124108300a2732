import HTTPServer
import HTTPTesting
import Testing

@Suite struct DecodingTests {
    @Test func queryItemsKeepOrderAndDecode() throws {
        try withServer(echoRouter()) { (server: Server) throws in
            let response = try server.client().get("/query?b=2&a=one+two&a=%C3%A9t%C3%A9&flag&empty=")
            #expect(response.status == 200)
            #expect(response.text == "b=2;a=one two;a=été;flag=;empty=")
        }
        let request = try Request(method: .get, target: "/x?name=first&name=second")
        #expect(request.query["name"] == "first")
        #expect(request.query.values(for: "name") == ["first", "second"])
        #expect(request.query["missing"] == nil)
    }

    /// The raw path is the target up to `?` or `#` (the whole target, when it is all path), the
    /// path its decoded segments joined.
    @Test(arguments: [
        ("/restaurant/bottom/home", "/restaurant/bottom/home", "/restaurant/bottom/home"),
        ("/a/b?x=1", "/a/b", "/a/b"),
        ("/a/b#frag", "/a/b", "/a/b"),
        ("/a%20b/c?q#f", "/a%20b/c", "/a b/c"),
        ("/", "/", "/"),
    ])
    func rawPathAndPath(target: String, rawPath: String, path: String) throws {
        let request = try Request(method: .get, target: target)
        #expect(request.target == target)
        #expect(request.rawPath == rawPath)
        #expect(request.path == path)
        #expect(
            request.pathSegments
                == Array(path.split(separator: "/", omittingEmptySubsequences: false).dropFirst()).map(String.init))
    }

    @Test(arguments: ["/query?a=%zz", "/query?a=%", "/query?a=%C3", "/icons/%E0%80/x", "/icons/a%2/x", "/nul%00"])
    func invalidPercentEncodingIs400(target: String) throws {
        try withServer(echoRouter()) { (server: Server) throws in
            let response = try server.client().get(target)
            #expect(response.status == 400)
        }
    }

    @Test func cookiesAreParsed() throws {
        try withServer(echoRouter()) { (server: Server) throws in
            let response = try server.client().get("/cookies", headers: ["Cookie": "b=2; a=\"quoted\";c=3; broken"])
            #expect(response.text == "a=quoted;b=2;c=3")
        }
    }

    @Test func setCookieHasSafeDefaultsAndRefusesBadValues() throws {
        try withServer(echoRouter()) { (server: Server) throws in
            let response = try server.client().get("/set-cookie")
            #expect(response.header("Set-Cookie") == "session=abc123; Path=/; HttpOnly; SameSite=Lax")
        }
        var response = Response.text("x")
        #expect(throws: InvalidCookieError.self) { try response.setCookie("a b", "v") }
        #expect(throws: InvalidCookieError.self) { try response.setCookie("a", "v;injected=1") }
        try response.expireCookie("old")
        #expect(response.headers.values(for: "set-cookie") == ["old=; Path=/; Max-Age=0; HttpOnly; SameSite=Lax"])
    }

    @Test func formBodiesDecodeInOrder() throws {
        try withServer(echoRouter()) { (server: Server) throws in
            let client = server.client()
            let response = try client.post("/form", form: ["user": "Zoë & co", "tab": "2", "tab": "3"])
            #expect(response.status == 200)
            #expect(response.text == "user=Zoë & co;tab=2;tab=3")
            let invalid = try client.post(
                "/form", body: Array("a=%G1".utf8), contentType: "application/x-www-form-urlencoded")
            #expect(invalid.status == 400)
            let notUTF8 = try client.post(
                "/form", body: [0x61, 0x3D, 0xFF], contentType: "application/x-www-form-urlencoded")
            #expect(notUTF8.status == 400)
            let wrongType = try client.post("/form", body: Array("{}".utf8), contentType: "application/json")
            #expect(wrongType.status == 415)
        }
    }

    @Test func formSizeLimitIsEnforced() throws {
        var request = try Request(
            method: .post, target: "/", headers: ["Content-Type": "application/x-www-form-urlencoded; charset=utf-8"],
            body: Array("a=1234567890".utf8))
        #expect(try request.form(limit: 64)["a"] == "1234567890")
        #expect(throws: FormError.tooLarge(limit: 8)) { try request.form(limit: 8) }
        request.body = Array("a=%".utf8)
        #expect(throws: FormError.self) { try request.form() }
    }

    @Test func percentDecodingRoundTripsAndRejectsGarbage() throws {
        let text = "a b/ü?&=+%"
        #expect(try PercentDecoding.decode(Substring(PercentDecoding.encode(text))) == text)
        #expect(try PercentDecoding.decode("a+b", plusAsSpace: true) == "a b")
        #expect(try PercentDecoding.decode("a+b") == "a+b")
        #expect(throws: PercentDecodingError.self) { try PercentDecoding.decode("%FF") }
        #expect(throws: PercentDecodingError.self) { try PercentDecoding.decode("%4") }
    }
}
