import Foundation
import HTTPTesting
import Sessions
import TabModel
import Testing

@testable import Snapshots
@testable import TabStageApp
@testable import TabStageCLI

/// Headers, CSRF tokens, session fixation and escaping of untrusted text.
@Suite struct SecurityTests {
    /// An app whose every text tries to break out of HTML, an attribute or a URL.
    static let hostileApp = """
        {"id": "hostile", "name": {"en": "<img src=x onerror=alert(1)>", "zh-Hant": "\\"onmouseover=alert(1) x=\\""},
         "tint": "#336699", "layout": "bottom",
         "tabs": [
          {"id": "one", "title": {"en": "<script>x()</script>", "zh-Hant": "javascript:alert(1)"}, "icon": "home",
           "badge": "<b>", "page": {"kind": "search", "heading": {"en": "</main><script>", "zh-Hant": "&amp;"},
           "placeholder": {"en": "\\"><svg onload=x()>", "zh-Hant": "'"},
           "items": [{"id": "a", "title": {"en": "javascript:alert(1)", "zh-Hant": "<a href=javascript:x>"},
                      "detail": {"en": "\\"onmouseover=\\"x()", "zh-Hant": "<!--"}}]}},
          {"id": "two", "title": {"en": "\\"onmouseover=x()", "zh-Hant": "<style>"}, "icon": "star",
           "page": {"kind": "text", "paragraphs": [{"en": "<iframe src=//evil>", "zh-Hant": "]]>"}]}}
         ]}
        """

    static func hostile() throws -> AppDescription {
        try AppDescription.load(jsonText: hostileApp).get()
    }

    /// Every markup the hostile texts would make if written unescaped.
    static let forbidden = [
        "<script>x()", "<img src=x", "\"onmouseover=", "<svg onload", "</main><script>", "<iframe", "<style>", "<b>",
        "href=\"javascript:", "<a href=javascript:", "<!--",
    ]

    @Test func scriptLikeTextsInAnAppAreEscapedOnEveryPage() throws {
        let stage = try StageServer(application: .deterministic(apps: BuiltInApps.all + [try Self.hostile()]))
        for language in ["en", "zh-TW"] {
            let visitor = stage.visitor(language: language)
            for path in [
                "/", "/hostile/bottom/one", "/hostile/bottom/one?q=%3Cscript%3E%22onmouseover%3D",
                "/hostile/vertical/two", "/hostile/events", "/login?next=/hostile/bottom/one",
                "/hostile/bottom/nowhere%3Cscript%3E",
            ] {
                let page = try visitor.get(path)
                #expect(page.status < 500)
                for markup in Self.forbidden {
                    #expect(!page.text.contains(markup), "\(path) (\(language)) contains \(markup)")
                }
            }
            let json = try visitor.get("/hostile/events.json")
            #expect(json.header("Content-Type")?.hasPrefix("application/json") == true)
        }
        let page = try stage.visitor().get("/hostile/bottom/one")
        #expect(page.text.contains("&lt;script&gt;x()&lt;/script&gt;"))
        #expect(page.text.contains("&quot;onmouseover=x()"))
    }

    @Test func theSnapshotCommandEscapesAnAppDescriptionToo() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tabstage-hostile-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let app = folder.appendingPathComponent("hostile.json")
        try Data(Self.hostileApp.utf8).write(to: app)
        let list = folder.appendingPathComponent("list.txt")
        try Data("GET /hostile/bottom/one\nGET /hostile/vertical/two\nGET /\n".utf8).write(to: list)
        let out = folder.appendingPathComponent("out")
        let result = runCLI(["snapshot", "record", "--app", app.path, "--requests", list.path, "--dir", out.path])
        #expect(result.code == 0, "\(result.err)")
        // The markup as a browser gets it; the prototype section above it is plain text, which
        // names the app as its description does.
        for file in try FileManager.default.contentsOfDirectory(atPath: out.path) {
            let text = try String(contentsOf: out.appendingPathComponent(file), encoding: .utf8)
            let response = try #require(text.components(separatedBy: "== response\n").last)
            for markup in Self.forbidden { #expect(!response.contains(markup), "\(file) contains \(markup)") }
            // Each snapshot changed, so the report shows it whole, prototype section included.
            try Data((text.replacingOccurrences(of: "== prototype", with: "== before")).utf8)
                .write(to: out.appendingPathComponent(file))
        }
        let report = folder.appendingPathComponent("report.html")
        let failed = runCLI([
            "snapshot", "verify", "--app", app.path, "--requests", list.path, "--dir", out.path, "--report",
            report.path,
        ])
        #expect(failed.code == 1)
        let html = try #require(try String(contentsOf: report, encoding: .utf8).components(separatedBy: "<body>").last)
        #expect(html.contains("app: hostile (&lt;img src=x onerror=alert(1)&gt;)"))
        for markup in Self.forbidden { #expect(!html.contains(markup), "the report's body contains \(markup)") }
    }

    @Test func everyHTMLResponseCarriesTheSecurityHeaders() throws {
        let visitor = try StageServer().visitor()
        for path in [
            "/", "/restaurant/bottom/home", "/login", "/nowhere", "/restaurant/events", "/restaurant/sideways/x",
        ] {
            let page = try visitor.get(path)
            let policy = try #require(page.header("Content-Security-Policy"), "\(path)")
            #expect(policy.contains("default-src 'none'"))
            #expect(policy.contains("script-src 'self'"))
            // The pages the stage frames (docs/stage.md) allow their own origin only.
            let framed = path == "/restaurant/bottom/home" || path == "/login"
            #expect(policy.contains(framed ? "frame-ancestors 'self'" : "frame-ancestors 'none'"))
            #expect(!policy.contains("unsafe-inline"))
            #expect(page.header("Referrer-Policy") == "same-origin")
            #expect(page.header("X-Content-Type-Options") == "nosniff")
        }
        // Every other response too: status pages of the HTTP layer, icons, styles, redirects.
        for path in [
            "/healthz", "/static/css/tabstage.css", "/icons/home/selected@2x.png", "/restaurant/bottom",
            "/static/nothing.css", "/theme/restaurant.css",
        ] {
            #expect(try visitor.get(path).header("X-Content-Type-Options") == "nosniff", "\(path)")
        }
    }

    @Test func secureCookiesAreMarkedSecure() throws {
        let application = StageApplication(
            apps: BuiltInApps.all, store: MemorySessionStore<VisitorSession>(), sessionIDs: SeededSessionIDs(seed: 3),
            clock: { StageApplication.deterministicEpoch }, secureCookies: true)
        let cookie = try #require(
            try StageServer(application: application).visitor().get("/login").header("Set-Cookie"))
        #expect(cookie.contains("; Secure"))
        #expect(cookie.contains("HttpOnly"))
    }

    @Test func aPostWithoutTheSessionsTokenIsRefusedAndChangesNothing() throws {
        let visitor = try StageServer().visitor()
        _ = try visitor.get("/restaurant/bottom/home")
        #expect(try visitor.post("/restaurant/bottom/home/action", form: [("action", "increment")]).status == 303)
        let before = try visitor.get("/restaurant/events.json").text
        let page = try visitor.get("/restaurant/bottom/home").text
        for form in [
            [("action", "increment")], [("action", "increment"), ("csrf", "0123456789abcdef0123456789abcdef")],
        ] {
            let refused = try visitor.post("/restaurant/bottom/home/action", form: form, withToken: false)
            #expect(refused.status == 403)
        }
        #expect(try visitor.post("/logout", form: [], withToken: false).status == 403)
        #expect(try visitor.post("/login", form: [("name", "Eve")], withToken: false).status == 403)
        #expect(try visitor.get("/restaurant/events.json").text == before)
        #expect(try visitor.get("/restaurant/bottom/home").text == page, "same count, nobody logged in")
    }

    @Test func aLoginPostWithoutASessionIsRefused() throws {
        let visitor = try StageServer().visitor()
        let response = try visitor.post("/login", form: [("name", "Eve"), ("csrf", "")])
        #expect(response.status == 403)
        #expect(response.header("Set-Cookie") == nil)
    }

    @Test func theSessionIDChangesAtLogInAndLogOutAndTheOldOneIsGone() throws {
        let visitor = try StageServer().visitor()
        _ = try visitor.get("/restaurant/bottom/home")
        _ = try visitor.post("/restaurant/bottom/home/action", form: [("action", "increment")])
        let beforeLogin = try #require(visitor.cookie)
        let events = try visitor.get("/restaurant/events.json").text
        let login = try visitor.post("/login", form: [("name", "Ada"), ("next", "/restaurant/bottom/home")])
        #expect(login.status == 303)
        let afterLogin = try #require(visitor.cookie)
        #expect(afterLogin != beforeLogin)
        #expect(try visitor.get("/restaurant/events.json").text == events, "the state moved to the new id")
        #expect(try visitor.get("/restaurant/bottom/home").text.contains("Logged in as Ada"))

        let planted = try StageServer.reuse(visitor, cookie: beforeLogin)
        #expect(try planted.get("/restaurant/bottom/home").header("Set-Cookie") != nil, "the old id names nothing")

        _ = try visitor.get("/restaurant/bottom/home")
        let logout = try visitor.post("/logout", form: [("next", "/restaurant/bottom/home")])
        #expect(logout.status == 303)
        #expect(visitor.cookie != afterLogin)
        let stolen = try StageServer.reuse(visitor, cookie: afterLogin)
        let page = try stolen.get("/restaurant/bottom/home")
        #expect(page.header("Set-Cookie") != nil)
        #expect(!page.text.contains("Logged in as Ada"), "the logged-in id is worthless after log-out")
    }
}

extension StageServer {
    /// Another browser of the same server holding `cookie`.
    static func reuse(_ visitor: Visitor, cookie: String) throws -> Visitor {
        let other = visitor.stage.visitor()
        other.cookie = cookie
        return other
    }
}
