import Foundation
import HTTPTesting
import Testing

@testable import Snapshots
@testable import TabStageApp
@testable import TabStageCLI

/// Malformed, huge and malicious requests over real sockets: each gets a 4xx (or, for a request
/// line libmicrohttpd cannot parse at all, a closed connection), the server keeps serving, and
/// the session a refused request names is exactly as it was.
@Suite struct HostileInputTests {
    /// A visitor with some state: a selected tab, a counter at 2, a language.
    static func establishedVisitor(_ stage: StageServer) throws -> Visitor {
        let visitor = stage.visitor()
        _ = try visitor.get("/restaurant/bottom/home?lang=en")
        _ = try visitor.post("/restaurant/bottom/home/action", form: [("action", "increment")])
        _ = try visitor.post("/restaurant/bottom/home/action", form: [("action", "increment")])
        return visitor
    }

    /// What the session looks like from outside: its event log and its page (a reload, no change).
    static func observe(_ visitor: Visitor) throws -> [String] {
        [try visitor.get("/restaurant/events.json").text, try visitor.get("/restaurant/bottom/home").text]
    }

    /// Sends `raw` on a fresh connection; nil when the server closed it without an answer.
    static func send(_ raw: [UInt8], to stage: StageServer) -> TestResponse? {
        let client = HTTPTestClient(port: stage.server.port, timeoutSeconds: 20)
        defer { client.close() }
        return try? client.send(raw: raw)
    }

    static func request(_ line: String, cookie: String?, headers: [String] = [], body: [UInt8] = []) -> [UInt8] {
        var head = line + "\r\nHost: 127.0.0.1\r\nConnection: close\r\n"
        if let cookie { head += "Cookie: \(cookie)\r\n" }
        for header in headers { head += header + "\r\n" }
        if !body.isEmpty { head += "Content-Length: \(body.count)\r\n" }
        return Array((head + "\r\n").utf8) + body
    }

    /// Runs a batch, expecting a 4xx for each, then checks health and the session. The batch is
    /// made with the cookie of the very session it then checks.
    func expectRefused(allowClose: Set<String> = [], _ makeBatch: (_ cookie: String) -> [(String, [UInt8])]) throws {
        let stage = try StageServer()
        let visitor = try Self.establishedVisitor(stage)
        let batch = makeBatch(try #require(visitor.cookie))
        let before = try Self.observe(visitor)
        for (name, raw) in batch {
            guard let response = Self.send(raw, to: stage) else {
                #expect(allowClose.contains(name), "\(name): closed without an answer")
                continue
            }
            #expect((400..<500).contains(response.status), "\(name): \(response.status)")
            #expect(!response.text.contains("swift-tools-version"), "\(name) leaked a file")
            #expect(!response.text.contains("root:"), "\(name) leaked a file")
        }
        #expect(try HTTPTestClient(port: stage.server.port).get("/healthz").status == 200)
        #expect(try Self.observe(visitor) == before, "a refused request changed the session")
    }

    @Test func malformedRequestLinesAndHeaders() throws {
        try expectRefused(allowClose: ["no target", "bad version", "huge target", "huge header"]) { cookie in
            [
                // libmicrohttpd 0.9.75 closes the connection without an answer for a line with no target.
                ("no target", Array("GARBAGE\r\n\r\n".utf8)),
                ("bad version", Array("GET / HTTP/1.x\r\nHost: a\r\n\r\n".utf8)),
                ("no host", Array("GET / HTTP/1.1\r\nConnection: close\r\n\r\n".utf8)),
                ("header without colon", Self.request("GET / HTTP/1.1", cookie: cookie, headers: ["NoColonHere"])),
                ("unknown method", Self.request("BREW /restaurant/bottom/home HTTP/1.1", cookie: cookie)),
                (
                    "unknown method on a form",
                    Self.request("PATCH /restaurant/bottom/home/action HTTP/1.1", cookie: cookie)
                ),
                ("DELETE", Self.request("DELETE /login HTTP/1.1", cookie: cookie)),
                (
                    "huge target",
                    Self.request("GET /" + String(repeating: "a", count: 40_000) + " HTTP/1.1", cookie: cookie)
                ),
                (
                    "huge header",
                    Self.request(
                        "GET / HTTP/1.1", cookie: cookie, headers: ["X-Big: " + String(repeating: "b", count: 40_000)])
                ),
                (
                    "huge body",
                    Self.request(
                        "POST /restaurant/bottom/home/action HTTP/1.1", cookie: cookie,
                        headers: ["Content-Type: application/x-www-form-urlencoded"],
                        body: Array(repeating: UInt8(ascii: "a"), count: 1024 * 1024 + 10))
                ),
            ]
        }
    }

    @Test func invalidUTF8AndPercentEncodingAnywhere() throws {
        let stage = try StageServer()
        let visitor = try Self.establishedVisitor(stage)
        let cookie = try #require(visitor.cookie)
        let form = ["Content-Type: application/x-www-form-urlencoded"]
        let batch: [(String, [UInt8])] = [
            ("bad percent in a path", Self.request("GET /restaurant/bottom/%zz HTTP/1.1", cookie: cookie)),
            ("invalid UTF-8 percent-encoded", Self.request("GET /restaurant/bottom/%FF%FE HTTP/1.1", cookie: cookie)),
            ("truncated percent", Self.request("GET /restaurant/bottom/home% HTTP/1.1", cookie: cookie)),
            (
                "bad percent in a query",
                Self.request("GET /restaurant/bottom/finding?q=%E2%82 HTTP/1.1", cookie: cookie)
            ),
            (
                "invalid UTF-8 in a form",
                Self.request(
                    "POST /restaurant/bottom/home/action HTTP/1.1", cookie: cookie, headers: form,
                    body: Array("action=%FF%FE&csrf=%C0".utf8))
            ),
            (
                "bad percent in a form",
                Self.request(
                    "POST /restaurant/bottom/home/action HTTP/1.1", cookie: cookie, headers: form,
                    body: Array("action=incr%zzement".utf8))
            ),
            (
                "a form with the token but a bad action",
                Self.request(
                    "POST /restaurant/bottom/home/action HTTP/1.1", cookie: cookie, headers: form,
                    body: Array("action=%00&csrf=\(visitor.csrfToken ?? "")".utf8))
            ),
            (
                "top-up out of range",
                Self.request(
                    "POST /restaurant/bottom/wallet/action HTTP/1.1", cookie: cookie, headers: form,
                    body: Array("action=top-up&amount=99999999999999999999999&csrf=\(visitor.csrfToken ?? "")".utf8))
            ),
        ]
        // A raw 0xFF byte in the target, not percent-encoded.
        var rawByte = Array("GET /restaurant/bottom/".utf8) + [0xFF, 0xFE] + Array(" HTTP/1.1\r\nHost: a\r\n".utf8)
        rawByte += Array("Cookie: \(cookie)\r\nConnection: close\r\n\r\n".utf8)
        try expectRefusedOn(
            stage, visitor, batch + [("raw byte", rawByte)],
            alsoAllowed: ["top-up out of range": 303])
    }

    /// Like `expectRefused`, on a given server and session; `alsoAllowed` names requests that
    /// may redirect (a refused action is shown on the page, changing nothing).
    func expectRefusedOn(
        _ stage: StageServer, _ visitor: Visitor, _ batch: [(String, [UInt8])], alsoAllowed: [String: Int] = [:]
    ) throws {
        var before = try Self.observe(visitor)
        for (name, raw) in batch {
            let response = try #require(Self.send(raw, to: stage), "\(name): no answer")
            if let allowed = alsoAllowed[name], response.status == allowed {
                // The refusal notice is shown once on the next page; take it, then compare.
                _ = try Self.observe(visitor)
                before = try Self.observe(visitor)
                continue
            }
            #expect((400..<500).contains(response.status), "\(name): \(response.status)")
        }
        #expect(try HTTPTestClient(port: stage.server.port).get("/healthz").status == 200)
        #expect(try Self.observe(visitor) == before)
    }

    @Test func cookiesThatAreNotOursAreNeverTrusted() throws {
        let stage = try StageServer()
        let visitor = try Self.establishedVisitor(stage)
        let before = try Self.observe(visitor)
        let cookie = try #require(visitor.cookie)
        let forged = [
            "tabstage_session=%FF%FE", "tabstage_session=" + String(repeating: "f", count: 33),
            "tabstage_session=../../etc/passwd", "tabstage_session=\"" + cookie.dropFirst(17),
            "tabstage_session=" + cookie.dropFirst(17).uppercased(), "tabstage_session=",
            "tabstage_session=\u{00E9}\u{00E9}",
        ]
        for value in forged {
            let raw = Self.request("GET /restaurant/bottom/home HTTP/1.1", cookie: value)
            let response = try #require(Self.send(raw, to: stage))
            #expect(response.status == 200, "\(value)")
            let setCookie = try #require(response.header("Set-Cookie"), "\(value) was trusted")
            #expect(!setCookie.contains(cookie))
        }
        #expect(try Self.observe(visitor) == before)
    }

    @Test func pathTraversalInEveryRoute() throws {
        let targets = [
            "/static/../Package.swift", "/static/%2e%2e/Package.swift", "/static/..%2fPackage.swift",
            "/static/css/..%2f..%2f..%2fPackage.swift", "/static/%2e%2e%2f%2e%2e%2fetc%2fpasswd",
            "/static//etc/passwd", "/static/css/%00.css", "/icons/../../Package.swift",
            "/icons/..%2f..%2fPackage.swift/selected@1x.png", "/icons/home/..%2fselected@1x.png",
            "/icons/apps/restaurant/..%2f..%2fhome/selected@1x.png", "/icons/apps/..%2f/home/selected@1x.png",
            "/theme/..%2f..%2fPackage.swift", "/theme/%2e%2e.css", "/theme/restaurant.css%00",
            "/restaurant/bottom/..%2f..%2fPackage.swift", "/restaurant/..%2fbottom/home",
            "/..%2frestaurant/bottom/home", "/restaurant/bottom/home/..%2f..%2faction",
            "/restaurant/events/../../Package.swift", "/%2e%2e/%2e%2e/etc/passwd",
        ]
        try expectRefused { cookie in targets.map { ($0, Self.request("GET \($0) HTTP/1.1", cookie: cookie)) } }
    }

    @Test func outOfRangeTabsScalesAndTints() throws {
        var targets = [
            "/restaurant/bottom/99", "/restaurant/bottom/-1", "/restaurant/bottom/0x10", "/restaurant/bottom/1e9",
            "/restaurant/bottom/99999999999999999999", "/restaurant/sideways/home", "/restaurant/bottom/_more/x",
            "/restaurant/bottom/home?lang=%FF",
        ]
        for scale in ["0", "4", "", "99999999999999999999", "-1", "1.5", "+2", " 2", "02"] {
            targets.append("/icons/home/selected@\(scale)x.png")
            targets.append("/icons/apps/restaurant/home/selected@\(scale)x.png")
        }
        for state in ["chosen", "", "SELECTED", "xselected", "selectedx", "un"] {
            targets.append("/icons/home/\(state)@1x.png")
        }
        for file in [
            "selected@2x.pngx", "selected2x.png", "selected@2X.png", "selected@2x.PNG", "selected@@2x.png",
            "Selected@2x.png", "selected@2x.pnh", "selectedd@2x.png", "@2x.png",
        ] {
            targets.append("/icons/home/\(file)")
        }
        for tint in ["GGGGGG", "12345", "1234567", "%00", "", "%23GG3366", "-12345", "ffffff%FF"] {
            targets.append("/icons/home/selected@1x.png?tint=\(tint)")
        }
        targets += ["/icons/nothing/selected@1x.png", "/icons/apps/nothing/home/selected@1x.png", "/theme/nothing.css"]
        try expectRefused { cookie in targets.map { ($0, Self.request("GET \($0) HTTP/1.1", cookie: cookie)) } }
    }

    @Test func malformedOrEnormousPathDataInAnAppIsACheckError() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tabstage-paths-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let enormous = String(repeating: "L1 1 ", count: 100_000)
        for (name, path) in [
            ("malformed", "M0 0 L"), ("letters", "hello"), ("nan", "M NaN 0 L 1 1 z"), ("enormous", enormous),
            ("bad flag", "M0 0 A 1 1 0 2 1 5 5"),
        ] {
            let text = """
                {"id": "paths", "name": {"en": "P", "zh-Hant": "P"}, "tint": "#112233", "layout": "bottom",
                 "tabs": [{"id": "a", "title": {"en": "A", "zh-Hant": "A"}, "icon": {"path": "\(path)"},
                           "page": {"kind": "text"}},
                          {"id": "b", "title": {"en": "B", "zh-Hant": "B"}, "icon": "home", "page": {"kind": "text"}}]}
                """
            let file = folder.appendingPathComponent("\(name).json")
            try Data(text.utf8).write(to: file)
            let result = runCLI(["check", file.path])
            #expect(result.code == 1, "\(name) passed the check")
            #expect(result.out.contains("tabs[0] 'a'.icon"), "\(name): \(result)")
        }
    }
}
