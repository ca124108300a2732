import Foundation
import Synchronization
import Testing

@testable import TabStageApp
@testable import TabStageCLI

/// What a watcher logged.
private final class WatcherLog: Sendable {
    let lines = Mutex<[String]>([])
}

/// A folder with examples/coffee.json in it, a watcher of it, and what the watcher logged.
private final class Watching {
    let folder: URL
    let file: URL
    let original: Data
    let application: StageApplication
    let watcher: AppFileWatcher
    let log = WatcherLog()

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("tabstage-watcher-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        file = folder.appendingPathComponent("coffee.json")
        original = try Data(contentsOf: StageServer.repositoryRoot.appendingPathComponent("examples/coffee.json"))
        try original.write(to: file)
        let apps = try #require(
            AppFile.loaded(from: [file.path], command: "serve", console: Console(out: { _ in }, err: { _ in })))
        application = StageApplication.deterministic(apps: apps.apps)
        let log = self.log
        watcher = AppFileWatcher(files: apps.files, application: application) { line in
            log.lines.withLock { $0.append(line) }
        }
    }

    deinit {
        watcher.stop()
        try? FileManager.default.removeItem(at: folder)
    }

    var problems: [String]? { application.shelf.current.problems["coffee"] }

    /// Polls until `condition` holds, for at most 5 s.
    func eventually(_ condition: () -> Bool) -> Bool {
        let deadline = ContinuousClock.now + .seconds(5)
        while !condition() && ContinuousClock.now < deadline { usleep(20_000) }
        return condition()
    }
}

/// `serve --watch` when the file goes wrong in ways other than its content: it is deleted or
/// unreadable, or it leads out of its folder. The last good version serves on, the log and the
/// app's pages say why, and a page never shows more of the host than the file's name.
@Suite struct AppFileWatcherTests {
    @Test func aDeletedFileIsSaidAndTheLastGoodVersionServesUntilItIsBack() throws {
        let watching = try Watching()
        watching.watcher.watch(interval: .milliseconds(10))
        try FileManager.default.removeItem(at: watching.file)
        #expect(watching.eventually { watching.problems != nil }, "the pages are told")
        #expect(watching.problems == ["coffee.json: cannot be read (deleted?); the last good version is shown"])
        #expect(
            watching.log.lines.withLock {
                $0.contains { $0.contains(watching.file.path) && $0.contains("cannot be read") }
            })
        #expect(watching.application.app(id: "coffee") != nil)
        try watching.original.write(to: watching.file)
        #expect(watching.eventually { watching.problems == nil }, "the same file back clears the problem")
    }

    @Test func aFileThatLeadsOutOfItsFolderIsNotRead() throws {
        let watching = try Watching()
        let elsewhere = FileManager.default.temporaryDirectory.appendingPathComponent("tabstage-elsewhere-\(UUID())")
        try Data("Zq-secret".utf8).write(to: elsewhere)
        defer { try? FileManager.default.removeItem(at: elsewhere) }
        try FileManager.default.removeItem(at: watching.file)
        try FileManager.default.createSymbolicLink(at: watching.file, withDestinationURL: elsewhere)
        watching.watcher.reloadAll()
        let problems = try #require(watching.problems)
        #expect(problems == ["coffee.json: leads out of its folder; not read, the last good version is shown"])
        #expect(!problems.joined().contains("Z") && !watching.log.lines.withLock { $0.joined() }.contains("Zq"))
    }

    @Test func pagesNameTheFileAndTheLogItsPath() throws {
        let watching = try Watching()
        try Data("{\"id\": \"coffee\",".utf8).write(to: watching.file)
        watching.watcher.reloadAll()
        let problems = try #require(watching.problems)
        #expect(problems.allSatisfy { $0.hasPrefix("coffee.json:") }, "\(problems)")
        #expect(!problems.joined().contains(watching.folder.path))
        #expect(watching.log.lines.withLock { $0.contains { $0.hasPrefix(watching.file.path + ":") } })
    }
}

/// `serve --watch` of an app made of screens: a picture saved again is a new picture on the
/// app's pages, as a saved app file is a new app.
@Suite struct ScreenImageWatchTests {
    @Test func aChangedScreenImageReloadsItsAppWithTheNewPicture() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tabstage-screen-watch-\(UUID())")
        defer { try? FileManager.default.removeItem(at: folder) }
        let examples = StageServer.repositoryRoot.appendingPathComponent("examples")
        try FileManager.default.createDirectory(
            at: folder.appendingPathComponent("screens"), withIntermediateDirectories: true)
        for name in ["today@2x.png", "today-dark@2x.png", "workout@2x.png", "plans@2x.png", "progress@2x.png"] {
            try FileManager.default.copyItem(
                at: examples.appendingPathComponent("screens/" + name),
                to: folder.appendingPathComponent("screens/" + name))
        }
        let file = folder.appendingPathComponent("stride.json")
        try FileManager.default.copyItem(at: examples.appendingPathComponent("stride.json"), to: file)
        let apps = try #require(
            AppFile.loaded(from: [file.path], command: "serve", console: Console(out: { _ in }, err: { _ in })))
        let application = StageApplication.deterministic(apps: apps.apps)
        let watcher = AppFileWatcher(files: apps.files, application: application) { _ in }
        defer { watcher.stop() }
        func progressFingerprint() -> String? {
            guard case .screen(let page)? = application.app(id: "stride")?.tab(id: "progress")?.page.content else {
                return nil
            }
            return page.screen.images[0].fingerprint
        }
        let before = try #require(progressFingerprint())
        watcher.watch(interval: .milliseconds(10))
        // Another picture of the same size in the progress screen's place.
        try FileManager.default.removeItem(at: folder.appendingPathComponent("screens/progress@2x.png"))
        try FileManager.default.copyItem(
            at: examples.appendingPathComponent("screens/plans@2x.png"),
            to: folder.appendingPathComponent("screens/progress@2x.png"))
        let deadline = ContinuousClock.now + .seconds(5)
        while progressFingerprint() == before && ContinuousClock.now < deadline { usleep(20_000) }
        let after = try #require(progressFingerprint())
        #expect(after != before)
        #expect(application.shelf.current.screenImages[after + ".png"] != nil, "the new picture is served")
    }
}
