import Foundation
import HTTPServer
import HTTPTesting
import Sessions
import Synchronization
import TabModel
import Testing
import Views

@testable import Snapshots
@testable import TabStageApp
@testable import TabStageCLI

extension Visitor {
    /// Opens `path` as this browser's EventSource would: its cookie, and `Last-Event-ID` when given.
    func openStream(_ path: String, lastEventID: String? = nil) throws -> (HTTPTestClient, TestResponse) {
        let client = HTTPTestClient(port: stage.server.port, timeoutSeconds: 5)
        var headers: [(String, String)] = [("Accept", "text/event-stream")]
        if let cookie { headers.append(("Cookie", cookie)) }
        if let lastEventID { headers.append(("Last-Event-ID", lastEventID)) }
        let head = try client.openStream(path, headers: headers.map { (name: $0.0, value: $0.1) })
        return (client, head)
    }
}

/// The follow link on a presenter's page, as it is shown (absolute).
func followLink(in page: TestResponse) throws -> String {
    let text = page.text
    let marker = "class=\"follow-link\" href=\""
    let start = try #require(text.range(of: marker)).upperBound
    let end = try #require(text[start...].firstIndex(of: "\""))
    return String(text[start..<end])
}

/// The follow link's path, without the scheme and host it starts with.
func followPath(in page: TestResponse) throws -> String {
    let link = try followLink(in: page)
    guard let scheme = link.range(of: "://") else { return link }
    let afterHost = try #require(link[scheme.upperBound...].firstIndex(of: "/"))
    return String(link[afterHost...])
}

/// Streams, present and follow, and apps replaced while serving, over real sockets (docs/live.md).
@Suite struct LiveTests {
    @Test func aTapInOneWindowIsAnnouncedOnTheStreamOfTheOther() throws {
        let stage = try StageServer()
        let visitor = stage.visitor()
        let page = try visitor.get("/restaurant/bottom/home")
        #expect(page.text.contains("data-version=\"1-0\""))
        let (stream, head) = try visitor.openStream("/restaurant/live?v=1-0")
        #expect(head.status == 200)
        #expect(head.header("Content-Type") == "text/event-stream; charset=utf-8")
        #expect(head.header("X-Accel-Buffering") == "no")
        #expect(try stream.readStream(until: "event: hello\nid: 1-0\ndata: \n\n").hasPrefix("retry: 1000\n\n"))
        _ = try visitor.get("/restaurant/bottom/wallet", headers: [("X-TabStage-Source", "tap")])
        #expect(try stream.readStream(until: "\n\n") == "event: change\nid: 2-0\ndata: \n\n")
        // A page that only reads the state (a live refresh, a reload) is no change.
        _ = try visitor.get("/restaurant/bottom/wallet", headers: [("X-TabStage-Live", "1")])
        _ = try visitor.get("/restaurant/bottom/news", headers: [("X-TabStage-Source", "tap")])
        #expect(try stream.readStream(until: "\n\n") == "event: change\nid: 3-0\ndata: \n\n")
    }

    @Test func aSessionKeepsItsRevisionAndPresentationInADurableStore() throws {
        let session = VisitorSession(
            csrfToken: "t", revision: 7, presentation: Presentation(code: "c", appID: "restaurant", layout: .vertical))
        let decoder = JSONDecoder()
        decoder.userInfo[.appCatalog] = AppCatalog(BuiltInApps.all)
        let decoded = try decoder.decode(VisitorSession.self, from: try JSONEncoder().encode(session))
        #expect(decoded == session)
    }

    @Test func aStreamTellsAPageThatMissedChangesAtOnce() throws {
        let stage = try StageServer()
        let visitor = stage.visitor()
        _ = try visitor.get("/restaurant/bottom/home")
        _ = try visitor.get("/restaurant/bottom/wallet", headers: [("X-TabStage-Source", "tap")])
        let (stream, _) = try visitor.openStream("/restaurant/live", lastEventID: "1-0")
        #expect(try stream.readStream(until: "event: change\nid: 2-0\ndata: \n\n").hasPrefix("retry: 1000\n\n"))
    }

    @Test func aLiveRefreshLeavesTheOneShotNoticeToTheWindowThatActed() throws {
        let stage = try StageServer()
        let visitor = stage.visitor()
        _ = try visitor.get("/restaurant/bottom/wallet")
        // A refused top-up leaves its refusal for the next page of the window that posted.
        _ = try visitor.post("/restaurant/bottom/wallet/action", form: [("action", "top-up"), ("amount", "99999")])
        let refreshed = try visitor.get("/restaurant/bottom/wallet", headers: [("X-TabStage-Live", "1")])
        #expect(refreshed.status == 200)
        #expect(!refreshed.text.contains("At most 5000 per top-up"))
        #expect(try visitor.get("/restaurant/bottom/wallet").text.contains("At most 5000 per top-up"))
    }

    @Test func aFollowLinkShowsThePresentersStateAndNeverTheirSession() throws {
        let stage = try StageServer()
        let presenter = stage.visitor()
        _ = try presenter.get("/restaurant/bottom/home")
        _ = try presenter.post("/login", form: [("name", "Grace"), ("next", "/restaurant/bottom/wallet")])
        _ = try presenter.get("/restaurant/bottom/wallet", headers: [("X-TabStage-Source", "tap")])
        let presented = try presenter.post("/restaurant/present", form: [("layout", "vertical")])
        #expect(presented.status == 303)
        #expect(presented.header("Location") == "/restaurant/vertical/wallet")
        let page = try presenter.get("/restaurant/vertical/wallet")
        let path = try followPath(in: page)
        let code = String(path.dropFirst("/restaurant/follow/".count))
        #expect(code.count == 32 && code.allSatisfy(\.isHexDigit))
        #expect(page.text.contains("0 people following"))

        let follower = stage.visitor()
        let followed = try follower.get(path)
        #expect(followed.status == 200)
        // The follower's own session (for Leave's token), never the presenter's.
        let followerCookie = try #require(follower.cookie)
        #expect(followerCookie != presenter.cookie)
        #expect(followed.header("Content-Security-Policy") == StageResponses.contentSecurityPolicy)
        #expect(followed.header("X-Frame-Options") == "DENY")
        #expect(followed.header("Cache-Control") == "no-store")
        #expect(followed.header("Referrer-Policy") == "same-origin")
        let presenterCookie = try #require(presenter.cookie)
        let sessionID = String(presenterCookie.dropFirst("tabstage_session=".count))
        let token = try #require(presenter.csrfToken)
        #expect(!followed.text.contains(sessionID))
        #expect(!followed.text.contains(token))
        #expect(follower.csrfToken != nil && follower.csrfToken != token)
        #expect(!followed.text.contains("Grace"))
        #expect(followed.text.contains("class=\"device device-vertical\""))
        #expect(
            followed.text.contains("aria-current=\"page\" data-tab=\"wallet\"")
                || followed.text.contains(
                    "data-tab=\"wallet\" href=\"/restaurant/vertical/wallet\" aria-current=\"page\"")
        )
        #expect(followed.text.contains("<div class=\"follow-banner\" role=\"status\">"))
        #expect(followed.text.contains("<div class=\"follow-inert\" data-inert>"))
        #expect(followed.text.contains("href=\"\(path)\">Refresh</a>"))

        // The follower's presence reaches the presenter's page.
        let (stream, _) = try follower.openStream(path + "/live")
        _ = try stream.readStream(until: "event: hello")
        _ = try stream.readStream(until: "\n\n")
        #expect(try presenter.get("/restaurant/vertical/wallet").text.contains("1 person following"))
    }

    @Test func aFollowerHearsEveryTapAndTheEndOfTheirPresentation() throws {
        let stage = try StageServer()
        let presenter = stage.visitor()
        _ = try presenter.get("/restaurant/bottom/home")
        _ = try presenter.post("/restaurant/present", form: [("layout", "bottom")])
        let path = try followPath(in: try presenter.get("/restaurant/bottom/home"))
        let (stream, head) = try stage.visitor().openStream(path + "/live")
        #expect(head.status == 200)
        _ = try stream.readStream(until: "event: hello")
        _ = try stream.readStream(until: "\n\n")
        _ = try presenter.get("/restaurant/bottom/news", headers: [("X-TabStage-Source", "tap")])
        #expect(try stream.readStream(until: "\n\n").contains("event: change"))
        _ = try presenter.post("/restaurant/present/stop", form: [])
        #expect(try stream.readStream(until: "event: ended\ndata: \n\n").contains("event: ended"))
        #expect(try stream.readStreamToEnd() == "")

        let ended = try stage.visitor().get(path)
        #expect(ended.status == 404)
        #expect(ended.text.contains("This presentation has ended, or its link was withdrawn."))
        #expect(try stage.visitor().get(path + "/live").status == 404)
        #expect(try stage.visitor().get("/restaurant/follow/" + String(repeating: "0", count: 32)).status == 404)
    }

    /// A notice that tells every follower the same thing encodes its event once, however many
    /// follow, and reaches each of them.
    @Test func aNoticeToManyFollowersIsEncodedOnceAndReachesEveryOne() throws {
        let stage = try StageServer()
        let presenter = stage.visitor()
        _ = try presenter.get("/restaurant/bottom/home")
        _ = try presenter.post("/restaurant/present", form: [("layout", "bottom")])
        let path = try followPath(in: try presenter.get("/restaurant/bottom/home"))
        let followers = try (0..<20).map { _ in
            let (stream, head) = try stage.visitor().openStream(path + "/live")
            #expect(head.status == 200)
            _ = try stream.readStream(until: "event: hello")
            _ = try stream.readStream(until: "\n\n")
            return stream
        }
        let generation = stage.application.shelf.current.generation(ofApp: "restaurant")
        let notice = ChangeNotice(topic: LiveTopic.app("restaurant"), version: generation + 1)
        #expect(stage.application.liveStreams.deliver(notice) == 1)
        for follower in followers {
            #expect(try follower.readStream(until: "\n\n").contains("event: change\nid: "))
        }
    }

    @Test func aFollowCodeDiesWithThePresentersSession() throws {
        let stage = try StageServer(application: .deterministic(limits: SessionLimits(maxSessions: 1)))
        let presenter = stage.visitor()
        _ = try presenter.get("/restaurant/bottom/home")
        _ = try presenter.post("/restaurant/present", form: [("layout", "bottom")])
        let path = try followPath(in: try presenter.get("/restaurant/bottom/home"))
        #expect(try stage.visitor().get(path).status == 200)
        // Another visitor's session pushes the presenter's out of the store.
        _ = try stage.visitor().get("/restaurant/bottom/home")
        #expect(try stage.visitor().get(path).status == 404)
    }

    /// SQLite keeps follow codes in its file: after a restart the code is honoured at once,
    /// before any page of the presenter's reconnects.
    @Test func aFollowCodeKeptInADurableSessionIsHonouredAfterARestart() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tabstage-live-\(UUID())")
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("sessions.sqlite").path
        func application(_ store: SQLiteSessionStore<VisitorSession>) -> StageApplication {
            StageApplication(apps: BuiltInApps.all, store: store, sessionIDs: RandomSessionIDs(), clock: { Date() })
        }
        let info: [CodingUserInfoKey: any Sendable] = [.appCatalog: AppCatalog(BuiltInApps.all)]
        let first = try SQLiteSessionStore<VisitorSession>.open(path: file, decoderUserInfo: info)
        let before = try StageServer(application: application(first))
        let presenter = before.visitor()
        _ = try presenter.get("/restaurant/bottom/home")
        _ = try presenter.post("/restaurant/present", form: [("layout", "bottom")])
        let path = try followPath(in: try presenter.get("/restaurant/bottom/home"))
        try first.close()
        // The same sessions, served by a new process.
        let after = try StageServer(
            application: application(try SQLiteSessionStore<VisitorSession>.open(path: file, decoderUserInfo: info)))
        let follower = after.visitor()
        #expect(try follower.get(path).status == 200, "no page of the presenter's has reconnected")
    }

    /// A follower's header keeps them on the follow page: its links change only their own
    /// language or appearance, and the way out says what it does.
    @Test func theFollowPagesHeaderHasNoLinkThatLeavesThePresentation() throws {
        let stage = try StageServer()
        let presenter = stage.visitor()
        _ = try presenter.get("/restaurant/bottom/home")
        _ = try presenter.post("/restaurant/present", form: [("layout", "bottom")])
        let path = try followPath(in: try presenter.get("/restaurant/bottom/home"))
        let page = try stage.visitor().get(path).text
        let start = try #require(page.range(of: "<header"))
        let end = try #require(page.range(of: "</header>"))
        let header = String(page[start.lowerBound..<end.upperBound])
        let links = header.matches(of: /href="([^"]*)"/).map { String($0.output.1) }
        #expect(!links.isEmpty)
        #expect(links.allSatisfy { $0.hasPrefix("?") }, "links away from the presentation: \(links)")
        #expect(page.contains(">Explore on your own</button>"))
        #expect(page.contains("You carry on alone from this screen"))
    }

    @Test func leavingGivesTheFollowerTheScreenShownAndNothingElse() throws {
        let stage = try StageServer()
        let presenter = stage.visitor()
        _ = try presenter.get("/restaurant/bottom/home")
        _ = try presenter.post("/login", form: [("name", "Grace"), ("next", "/restaurant/bottom/membership")])
        _ = try presenter.get("/restaurant/bottom/news", headers: [("X-TabStage-Source", "tap")])
        _ = try presenter.post("/restaurant/present", form: [("layout", "bottom")])
        let path = try followPath(in: try presenter.get("/restaurant/bottom/news"))
        let follower = stage.visitor()
        #expect(try follower.get(path).status == 200)
        let cookie = try #require(follower.cookie, "the follow page gives the follower a session of their own")
        #expect(cookie != presenter.cookie)
        // Like every post, Leave takes the follower's token.
        #expect(try follower.post(path + "/leave", form: [], withToken: false).status == 403)
        let left = try follower.post(path + "/leave", form: [])
        #expect(left.status == 303)
        #expect(left.header("Location") == "/restaurant/bottom/news")
        let log = try follower.get("/restaurant/events.json").text
        #expect(!log.contains("Grace") && !log.contains("membership"), "nothing of the presenter's log: \(log)")
        _ = try follower.get("/restaurant/bottom/home", headers: [("X-TabStage-Source", "tap")])
        #expect(try presenter.get("/restaurant/bottom").header("Location") == "/restaurant/bottom/news")
    }

    @Test func aReplacedAppMovesEveryContainerAndTellsItsOpenPages() throws {
        let stage = try StageServer()
        let visitor = stage.visitor()
        _ = try visitor.get("/restaurant/bottom/wallet")
        let (stream, _) = try visitor.openStream("/restaurant/live")
        _ = try stream.readStream(until: "event: hello")
        _ = try stream.readStream(until: "\n\n")
        var app = try #require(BuiltInApps.app(id: "restaurant"))
        app.tabs.removeAll { $0.id == "wallet" }
        #expect(stage.application.replaceApp("restaurant", with: app))
        #expect(try stream.readStream(until: "event: change\nid: 1-1\ndata: \n\n").contains("event: problems"))
        // Wallet was third: the container keeps the index (news), as UIKit does.
        #expect(try visitor.get("/restaurant/bottom").header("Location") == "/restaurant/bottom/news")
        let log = try visitor.get("/restaurant/events.json").text
        #expect(log.contains("tabs replaced: 4 tabs, selected news"))

        stage.application.reportProblems(["app.json:3:5: tabs: missing"], forApp: "restaurant")
        let reported = try stream.readStream(until: "data: app.json:3:5: tabs: missing\n\n")
        #expect(reported.hasSuffix("event: problems\ndata: app.json:3:5: tabs: missing\n\n"))
        stage.application.reportProblems([], forApp: "restaurant")
        #expect(try stream.readStream(until: "\n\n") == "event: problems\ndata: \n\n")
    }

    @Test func theWatcherReplacesAnAppOnlyWhenItsFileIsWholeAndValid() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tabstage-watch-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("coffee.json")
        let original = try Data(contentsOf: StageServer.repositoryRoot.appendingPathComponent("examples/coffee.json"))
        try original.write(to: file)
        let apps = try #require(
            AppFile.loaded(from: [file.path], command: "serve", console: Console(out: { _ in }, err: { _ in })))
        let application = StageApplication.deterministic(apps: apps.apps)
        let lines = Mutex<[String]>([])
        let watcher = AppFileWatcher(files: apps.files, application: application) { line in
            lines.withLock { $0.append(line) }
        }
        let text = String(decoding: original, as: UTF8.self)
        try Data(text.replacingOccurrences(of: "\"Menu\"", with: "\"Drinks\"").utf8).write(to: file)
        watcher.reloadAll()
        #expect(application.app(id: "coffee")?.tabs[0].title.text(in: "en") == "Drinks")
        #expect(application.shelf.current.generation(ofApp: "coffee") == 1)
        try Data("{\"id\": \"coffee\",".utf8).write(to: file)
        watcher.reloadAll()
        #expect(application.app(id: "coffee")?.tabs[0].title.text(in: "en") == "Drinks")
        let problems = try #require(application.shelf.current.problems["coffee"])
        // The pages' banner names the file; only the server's log has where it is.
        #expect(problems.allSatisfy { $0.hasPrefix("coffee.json:") && !$0.contains(folder.path) })
        #expect(lines.withLock { $0.contains { $0.hasPrefix(file.path + ":") } })
        try original.write(to: file)
        watcher.reloadAll()
        #expect(application.shelf.current.problems["coffee"] == nil)
        #expect(application.app(id: "coffee")?.tabs[0].title.text(in: "en") == "Menu")
    }

    @Test func sighupReadsTheAppFilesAgainAndServesOn() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tabstage-hup-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("coffee.json")
        let original = try String(
            contentsOf: StageServer.repositoryRoot.appendingPathComponent("examples/coffee.json"), encoding: .utf8)
        try original.write(to: file, atomically: true, encoding: .utf8)
        let (process, port) = try launchServe(["--app", file.path, "--sessions", "memory"])
        defer { process.terminate() }
        let client = HTTPTestClient(port: port)
        #expect(try client.get("/coffee/bottom/menu").text.contains(">Menu</span>"))
        try original.replacingOccurrences(of: "\"Menu\"", with: "\"Drinks\"").write(
            to: file, atomically: true, encoding: .utf8)
        // Without --watch nothing happens until SIGHUP.
        usleep(300_000)
        #expect(try client.get("/coffee/bottom/menu").text.contains(">Menu</span>"))
        kill(process.processIdentifier, SIGHUP)
        let deadline = ContinuousClock.now + .seconds(5)
        var page = ""
        while ContinuousClock.now < deadline {
            page = try client.get("/coffee/bottom/menu").text
            if page.contains(">Drinks</span>") { break }
            usleep(50_000)
        }
        #expect(page.contains(">Drinks</span>"))
        #expect(process.isRunning)
    }
}
