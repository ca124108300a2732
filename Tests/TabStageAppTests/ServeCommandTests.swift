import Foundation
import HTTPServer
import HTTPTesting
import Testing

@testable import Snapshots
@testable import TabStageApp
@testable import TabStageCLI

@Suite struct ServeCommandTests {
    static let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    @Test func routesAnswerHomeHealthAndStaticFiles() throws {
        let files = try StaticFiles(root: Self.repositoryRoot.appendingPathComponent("Public").path)
        let router = Routes.makeRouter(staticFiles: files, application: .deterministic())
        let home = router.respond(to: try Request(method: .get, target: "/"))
        #expect(home.status == .ok)
        #expect(String(decoding: home.body, as: UTF8.self).contains("<a href=\"/restaurant/bottom\">"))
        #expect(router.respond(to: try Request(method: .get, target: "/healthz")).body == Array("ok".utf8))
        let css = router.respond(to: try Request(method: .get, target: "/static/css/tabstage.css"))
        #expect(css.status == .ok)
        #expect(css.headers["Content-Type"] == "text/css; charset=utf-8")
    }

    @Test func missingPublicFolderIsAClearError() {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tabstage-public-\(UUID())")
        defer { try? FileManager.default.removeItem(at: folder) }
        let database = folder.appendingPathComponent("sessions.sqlite").path
        let result = runCLI([
            "serve", "--port", "0", "--public", "/no/such/public", "--sessions", "sqlite:\(database)",
        ])
        #expect(result.code == 1)
        #expect(result.err.contains("/no/such/public"))
        // Refused before the session store is opened: no database made on the way.
        #expect(!FileManager.default.fileExists(atPath: database))
    }

    /// libmicrohttpd splits the connection limit evenly among its threads, and a stream stays on
    /// the thread that accepted it: every thread has room for all the streams beside its share
    /// of the other connections, so streams that landed on one thread never leave it full.
    @Test(arguments: [[], ["--sessions", "redis://127.0.0.1:1"]])
    func everyThreadHasRoomForEveryStreamBesideItsShareOfRequests(_ store: [String]) throws {
        let parsed = try ParsedArguments(["--max-streams", "10000"] + store, options: ServeCommand.options)
        let configuration = try ServeCommand.settings(parsed).configuration
        guard case .threadPool(let threads) = configuration.threading else {
            Issue.record("serve runs a thread pool")
            return
        }
        let requests = ServerConfiguration().connectionLimit
        #expect(configuration.connectionLimit / threads >= 10_000 + requests / threads)
    }

    @Test func badPortIsAUsageError() {
        #expect(runCLI(["serve", "--port", "99999"]).code == 2)
    }

    /// Runs the built binary end to end: start on a free port, ask /healthz, SIGTERM, exit 0.
    @Test func binaryServesAndStopsCleanlyOnSIGTERM() throws {
        let (process, port) = try launchServe(["--sessions", "memory"])
        defer { if process.isRunning { process.terminate() } }
        let health = try HTTPTestClient(port: port).get("/healthz")
        #expect(health.status == 200)
        #expect(health.text == "ok")

        process.terminate()
        process.waitUntilExit()
        #expect(process.terminationReason == .exit)
        #expect(process.terminationStatus == 0)
    }

    /// The stylesheet and script are in the binary: it serves them from a folder with no Public/.
    @Test func theBinaryServesItsOwnPublicFilesFromAnyFolder() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tabstage-anywhere-\(getpid())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let (process, port) = try launchServe(["--sessions", "memory"], in: folder)
        defer { if process.isRunning { process.terminate() } }
        let client = HTTPTestClient(port: port)
        for file in ["css/tabstage.css", "js/tabstage.js", "images/favicon.svg"] {
            let onDisk = try Data(contentsOf: Self.repositoryRoot.appendingPathComponent("Public/" + file))
            let served = try client.get("/static/" + file)
            #expect(served.status == 200, "\(file)")
            #expect(served.body == Array(onDisk), "\(file)")
            let tag = try #require(served.header("ETag"))
            #expect(try client.get("/static/" + file, headers: ["If-None-Match": tag]).status == 304)
        }
        #expect(try client.get("/restaurant/bottom/home").status == 200)
    }

    /// `--public DIR` replaces the built-in files with a folder of one's own.
    @Test func aPublicFolderOverridesTheBuiltInFiles() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tabstage-public-\(getpid())")
        try FileManager.default.createDirectory(
            at: folder.appendingPathComponent("css"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data("body { color: green; }\n".utf8).write(to: folder.appendingPathComponent("css/tabstage.css"))
        let (process, port) = try launchServe(["--sessions", "memory", "--public", folder.path], in: folder)
        defer { if process.isRunning { process.terminate() } }
        let client = HTTPTestClient(port: port)
        #expect(try client.get("/static/css/tabstage.css").text == "body { color: green; }\n")
        #expect(try client.get("/static/js/tabstage.js").status == 404)
    }

    @Test func serveAddsTheAppOfAFile() throws {
        let (process, port) = try launchServe(["--sessions", "memory", "--app", "examples/coffee.json"])
        defer { if process.isRunning { process.terminate() } }
        let client = HTTPTestClient(port: port)
        #expect(try client.get("/").text.contains("<a href=\"/coffee/bottom\">"))
        let entry = try client.get("/coffee/bottom")
        #expect(entry.status == 303)
        #expect(entry.header("Location") == "/coffee/bottom/menu")
        #expect(try client.get("/coffee/vertical/stamps").status == 200)
        #expect(try client.get("/restaurant/bottom/home").status == 200)  // the demos stay
    }

    @Test func serveRefusesAnAppFileThatIsMissingOrInvalid() {
        let missing = runCLI(["serve", "--port", "0", "--app", "/no/such/app.json"])
        #expect(missing.code == 1)
        #expect(missing.err.contains("cannot read '/no/such/app.json'"))
        let broken = Self.repositoryRoot.appendingPathComponent("examples/broken.json").path
        let invalid = runCLI(["serve", "--port", "0", "--app", broken])
        #expect(invalid.code == 1)
        #expect(invalid.err.contains("\(broken):12:15: tabs[0] 'home'.icon: unknown icon 'hom'"))
    }

    @Test func portInUseExitsWith1() throws {
        var configuration = ServerConfiguration(host: "127.0.0.1", port: 0)
        configuration.accessLog = nil
        let holder = Server(configuration: configuration, router: Router())
        try holder.start()
        defer { holder.stop() }
        let publicFolder = Self.repositoryRoot.appendingPathComponent("Public").path
        let result = runCLI(["serve", "--port", "\(holder.port)", "--public", publicFolder, "--sessions", "memory"])
        #expect(result.code == 1)
        #expect(result.err.contains("cannot listen on 127.0.0.1 port \(holder.port)"))
    }

    @Test func aDatabaseThatIsNotOursStopsServeWithAClearMessageAndIsKept() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tabstage-garbage-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("sessions.sqlite")
        let garbage = Data(repeating: 0x5A, count: 8192)
        try garbage.write(to: file)
        let publicFolder = Self.repositoryRoot.appendingPathComponent("Public").path
        let result = runCLI(["serve", "--port", "0", "--public", publicFolder, "--sessions", "sqlite:" + file.path])
        #expect(result.code == 1)
        #expect(result.err.contains(file.path))
        #expect(result.err.contains("--sessions memory"), "says what to do")
        #expect(try Data(contentsOf: file) == garbage, "never replaced")
    }

    @Test func sessionOptionsAreCheckedAsUsage() {
        #expect(runCLI(["serve", "--sessions", "redis"]).code == 2)
        #expect(runCLI(["serve", "--deterministic", "--sessions", "sqlite:/tmp/x.sqlite"]).code == 2)
        #expect(runCLI(["serve", "--max-connections-per-ip", "0"]).code == 2)
        #expect(runCLI(["serve", "--connection-timeout", "0"]).code == 2)
    }

    /// The room sees the start page and the banner: a page names an app's file, never its folder
    /// (issue 28); `--no-demos` serves the client's app alone.
    @Test func pagesNameTheAppFileNotItsFolderAndNoDemosHidesTheDemos() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tabstage-client-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("client-coffee.json")
        try Data(contentsOf: StageServer.repositoryRoot.appendingPathComponent("examples/coffee.json")).write(to: file)
        let (process, port) = try launchServe(["--app", file.path, "--sessions", "memory", "--no-demos"])
        defer { process.terminate() }
        let client = HTTPTestClient(port: port)
        let home = try client.get("/").text
        #expect(home.contains("client-coffee.json"))
        for path in ["/", "/coffee/stage", "/coffee/bottom", "/coffee/events", "/coffee/nowhere", "/icons"] {
            #expect(!(try client.get(path).text.contains(folder.path)), "\(path) shows the app file's folder")
        }
        #expect(!home.contains("/restaurant/stage"))
        #expect(try client.get("/restaurant/stage").status == 404)
    }

    /// An app file may say itself that it is shown alone (`"showsDemos": false`), so that the
    /// room never sees the demos whatever command line serves it.
    @Test func anAppFileThatShowsNoDemosIsServedAlone() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tabstage-alone-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("coffee.json")
        let text = try String(
            contentsOf: StageServer.repositoryRoot.appendingPathComponent("examples/coffee.json"), encoding: .utf8)
        let alone = text.replacingOccurrences(
            of: "\"id\": \"coffee\",", with: "\"id\": \"coffee\", \"showsDemos\": false,")
        #expect(alone != text)
        try alone.write(to: file, atomically: true, encoding: .utf8)
        let (process, port) = try launchServe(["--app", file.path, "--sessions", "memory"])
        defer { process.terminate() }
        let client = HTTPTestClient(port: port)
        #expect(try client.get("/coffee/stage").status == 200)
        #expect(try client.get("/restaurant/stage").status == 404)
    }

    @Test func noDemosNeedsAnAppFile() {
        let result = runCLI(["serve", "--no-demos"])
        #expect(result.code == 2)
        #expect(result.err.contains("--no-demos leaves nothing to serve without --app FILE"))
    }
}
