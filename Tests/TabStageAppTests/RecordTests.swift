import Foundation
import TabModel
import Testing

@testable import Snapshots
@testable import TabStageApp
@testable import TabStageCLI

/// "Record a test" (issue 35): a visit recorded on the server comes back as a request list
/// that `tabstage snapshot test` replays, recording on its first run and matching on the next.
@Suite struct RecordTests {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tabstage-record-\(UUID())")

    static var coffeePath: String { StageServer.repositoryRoot.appendingPathComponent("examples/coffee.json").path }

    static func coffeeServer() throws -> StageServer {
        let data = try Data(contentsOf: URL(fileURLWithPath: coffeePath))
        let coffee = try AppLoading.load(json: Array(data)).get()
        return try StageServer(application: .deterministic(apps: BuiltInApps.all + [coffee]))
    }

    /// A walk-through: a tap, a refused tab and a log-in, a form, a detail and Back, a language.
    static func walkThrough(_ visitor: Visitor) throws -> String {
        _ = try visitor.get("/coffee/bottom/menu")
        #expect(try visitor.post("/coffee/record", form: [("next", "/coffee/bottom/menu")]).status == 303)
        _ = try visitor.get("/coffee/bottom/menu")
        _ = try visitor.get("/coffee/bottom/stamps", headers: [("X-TabStage-Source", "tap")])
        #expect(try visitor.get("/coffee/bottom/account", headers: [("X-TabStage-Source", "tap")]).status == 403)
        _ = try visitor.post("/login", form: [("name", "Ada Lovelace"), ("next", "/coffee/bottom/account")])
        _ = try visitor.get("/coffee/bottom/account")
        _ = try visitor.post("/coffee/bottom/stamps/action", form: [("action", "increment")])
        _ = try visitor.get("/coffee/bottom/stamps")
        _ = try visitor.get("/coffee/bottom/menu/latte")
        _ = try visitor.get("/coffee/bottom/menu")
        _ = try visitor.get("/coffee/bottom/menu?lang=zh-Hant")
        let stopped = try visitor.post("/coffee/record/stop", form: [("next", "/coffee/bottom/menu")])
        #expect(stopped.status == 303)
        let page = try visitor.get("/coffee/bottom/menu")
        #expect(page.text.contains("href=\"/coffee/record.txt\""))
        let download = try visitor.get("/coffee/record.txt")
        #expect(download.status == 200)
        #expect(download.header("Content-Disposition") == "attachment; filename=\"coffee-test.txt\"")
        return download.text
    }

    @Test func aRecordedVisitDownloadsAsARequestListWithoutSecrets() throws {
        let stage = try Self.coffeeServer()
        let visitor = stage.visitor(language: "en")
        let text = try Self.walkThrough(visitor)
        #expect(text.hasPrefix("# A TabStage test of Corner Coffee (coffee), recorded on "))
        #expect(text.contains("tabstage snapshot test --app coffee.json --requests coffee-test.txt --dir snapshots"))
        let requests = text.split(separator: "\n").filter { !$0.hasPrefix("#") && !$0.hasPrefix(" ") && !$0.isEmpty }
        #expect(
            requests == [
                "GET /coffee/bottom/menu  # as: menu",
                "TAP /coffee/bottom/stamps  # as: stamps-tap",
                "TAP /coffee/bottom/account  # as: account-tap-refused",
                "POST /login name=Ada%20Lovelace&next=%2Fcoffee%2Fbottom%2Faccount  # as: login",
                "GET /coffee/bottom/account  # as: account-after-login",
                "POST /coffee/bottom/stamps/action action=increment  # as: stamps-increment",
                "GET /coffee/bottom/stamps  # as: stamps-after-increment",
                "GET /coffee/bottom/menu/latte  # as: menu-latte",
                "GET /coffee/bottom/menu  # as: menu-2",
                "GET /coffee/bottom/menu?lang=zh-Hant  # as: menu-lang-zh-hant",
            ])
        #expect(
            text.contains(
                "TAP /coffee/bottom/account  # as: account-tap-refused\n  Accept-Language: en\n  expect 403\n"))
        // Nothing secret: no cookie, no token.
        #expect(!text.contains("tabstage_session"))
        #expect(!text.contains("csrf"))
        if let token = visitor.csrfToken { #expect(!text.contains(token)) }
        // Recording's own forms are not in it.
        #expect(!text.contains("/record"))
    }

    @Test func theDownloadedListPassesOnItsFirstRunAndMatchesOnTheNext() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let stage = try Self.coffeeServer()
        let text = try Self.walkThrough(stage.visitor(language: "en"))
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let list = folder.appendingPathComponent("coffee-test.txt").path
        try Data(text.utf8).write(to: URL(fileURLWithPath: list))
        let snapshots = folder.appendingPathComponent("snapshots").path
        let arguments = ["snapshot", "test", "--app", Self.coffeePath, "--requests", list, "--dir", snapshots]
        let first = runCLI(arguments)
        #expect(first.out.hasSuffix("10 snapshots: 0 matched, 0 failed, 10 new, 0 obsolete\n"), "\(first.out)")
        let second = runCLI(arguments)
        #expect(second.code == 0, "\(second.out)")
        #expect(second.out == "10 snapshots: 10 matched, 0 failed, 0 new, 0 obsolete\n")
    }
}
