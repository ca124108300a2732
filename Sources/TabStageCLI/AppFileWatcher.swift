import Dispatch
import Foundation
import Snapshots
import Synchronization
import TabModel
import TabStageApp

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Re-reads `serve --app` files while serving: on SIGHUP (`reloadAll`), and with `--watch` when
/// a file changes on disk. A valid file replaces its app (`StageApplication.replaceApp`); an
/// invalid one is reported as `tabstage check` prints it and on the app's open pages, while the
/// last good version keeps serving.
///
/// The file is polled by path (a rename-save puts a new file there, which a watch of the old
/// inode would miss) and read only once it has stayed the same for `settle`: an editor's
/// truncate-then-write or burst of writes is read once, whole. A file that is gone or cannot be
/// read, or that leads out of its folder (a symbolic link put in its place), is not read: the
/// log and the app's pages say so, and the last good version serves on.
///
/// A screen page's image is watched as its app file is: a changed picture reloads the app.
///
/// Pages name the file by its name only; the log, which only the operator reads, by its path.
final class AppFileWatcher: Sendable {
    /// What a file looked like on disk: any difference means it changed.
    struct Signature: Equatable {
        var inode: UInt64
        var size: Int64
        var modifiedNanoseconds: Int64
    }

    /// A file's look and its screen images' (by the paths of the app it last described).
    struct Look: Equatable {
        var file: Signature?
        var images: [Signature?]
    }

    /// A file's new look, and when it was first seen.
    private struct Pending {
        var look: Look
        var since: ContinuousClock.Instant
    }

    private struct Watched {
        let path: String
        /// The id of the app the file last described validly.
        var appID: String
        /// The look and the bytes last read.
        var look: Look
        var bytes: [UInt8]
        /// The app's screen images: a changed picture reloads the app as a changed file does.
        var images: [String]
        /// A signature seen since, waiting to settle.
        var pending: Pending?
        /// The folders the file may be read from (real paths): its own, and the one its real
        /// path was in when serving began.
        let folders: Set<String>
        /// The pages say the file cannot be read: the next good read clears it.
        var isUnreadable = false
    }

    private let files: Mutex<[Watched]>
    private let application: StageApplication
    private let report: @Sendable (String) -> Void
    private let settle: Duration
    private let queue = DispatchQueue(label: "tabstage.app-file-watcher")
    private let timer: Mutex<PollTimer?> = Mutex(nil)

    /// `files` are the `--app` paths with the apps they were loaded as, in order.
    init(
        files: [AppFile.Loaded], application: StageApplication,
        settle: Duration = .milliseconds(60), report: @escaping @Sendable (String) -> Void
    ) {
        self.files = Mutex(
            files.map { file in
                let images = application.app(id: file.appID).map { Self.imagePaths(of: $0, file: file.path) } ?? []
                return Watched(
                    path: file.path, appID: file.appID, look: Self.look(file.path, images: images), bytes: file.bytes,
                    images: images, folders: Self.folders(of: file.path))
            })
        self.application = application
        self.settle = settle
        self.report = report
    }

    /// Polls every `interval` from now on.
    func watch(interval: Duration = .milliseconds(40)) {
        let source = DispatchSource.makeTimerSource(queue: queue)
        let nanoseconds =
            Int(interval.components.seconds) * 1_000_000_000 + Int(interval.components.attoseconds / 1_000_000_000)
        source.schedule(deadline: .now(), repeating: .nanoseconds(nanoseconds), leeway: .milliseconds(5))
        source.setEventHandler { [weak self] in self?.poll() }
        timer.withLock { $0 = PollTimer(source: source) }
        source.resume()
    }

    func stop() {
        timer.withLock { timer in
            timer?.source.cancel()
            timer = nil
        }
    }

    /// Reads every file again now, changed or not (SIGHUP).
    func reloadAll() {
        queue.sync {
            let count = files.withLock { $0.count }
            for index in 0..<count { load(index, force: true) }
        }
    }

    /// One look at every file: a new signature starts waiting; one that stayed for `settle` is read.
    private func poll() {
        let now = ContinuousClock.now
        let count = files.withLock { $0.count }
        for index in 0..<count {
            let ready = files.withLock { files -> Bool in
                let current = Self.look(files[index].path, images: files[index].images)
                if let pending = files[index].pending, pending.look == current {
                    return now - pending.since >= settle
                }
                if current != files[index].look || files[index].pending != nil {
                    files[index].pending = Pending(look: current, since: now)
                }
                return false
            }
            if ready { load(index, force: false) }
        }
    }

    /// Reads file `index` and replaces its app or reports its problems.
    private func load(_ index: Int, force: Bool) {
        let (path, appID, lastBytes, folders, wasUnreadable, images, lastLook) = files.withLock {
            (
                $0[index].path, $0[index].appID, $0[index].bytes, $0[index].folders, $0[index].isUnreadable,
                $0[index].images, $0[index].look
            )
        }
        let look = Self.look(path, images: images)
        let name = Self.name(of: path)
        func cannotRead(_ problem: String) {
            files.withLock { files in
                files[index].pending = nil
                files[index].look = look
                files[index].isUnreadable = true
            }
            report("tabstage serve: \(path): \(problem)\n")
            application.reportProblems(["\(name): \(problem)"], forApp: appID)
        }
        if let real = Self.realPath(path), !folders.contains(Self.folder(of: real)) {
            return cannotRead("leads out of its folder; not read, the last good version is shown")
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            return cannotRead("cannot be read (deleted?); the last good version is shown")
        }
        let bytes = Array(data)
        files.withLock { files in
            files[index].pending = nil
            files[index].look = look
            files[index].bytes = bytes
            files[index].isUnreadable = false
        }
        guard force || wasUnreadable || bytes != lastBytes || look.images != lastLook.images else { return }
        switch AppLoading.load(json: bytes, filePath: path) {
        case .success(let app):
            guard application.replaceApp(appID, with: app) else {
                let problem = "its app id '\(app.id)' is another served app's"
                report("\(path): \(problem)\n")
                application.reportProblems(["\(name): \(problem)"], forApp: appID)
                return
            }
            let images = Self.imagePaths(of: app, file: path)
            files.withLock { files in
                files[index].appID = app.id
                files[index].images = images
                files[index].look = Self.look(path, images: images)
            }
            report("tabstage serve: reloaded \(path) (app '\(app.id)', \(app.tabs.count) tabs)\n")
        case .failure(let validation):
            for problem in validation.problems { report(problem.line(in: path) + "\n") }
            application.reportProblems(validation.problems.map { $0.line(in: name) }, forApp: appID)
        }
    }

    /// The file's name, which is all of its path a page shows.
    static func name(of path: String) -> String {
        path.split(separator: "/").last.map(String.init) ?? path
    }

    static func folder(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    /// Where `path` leads, links followed; nil when it leads nowhere.
    static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    private static func folders(of path: String) -> Set<String> {
        let own = folder(of: path.contains("/") ? path : "./" + path)
        return Set([realPath(own), realPath(path).map(folder(of:))].compactMap { $0 })
    }

    static func look(_ path: String, images: [String]) -> Look {
        Look(file: signature(path), images: images.map(signature))
    }

    /// The paths of `app`'s screen images, beside its `file`.
    static func imagePaths(of app: AppDescription, file: String) -> [String] {
        let folder = folder(of: file.contains("/") ? file : "./" + file)
        return app.tabs.flatMap { tab -> [String] in
            guard case .screen(let page) = tab.page.content else { return [] }
            return page.images.map { folder + "/" + $0.file }
        }
    }

    static func signature(_ path: String) -> Signature? {
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        return Signature(
            inode: UInt64(status.st_ino), size: Int64(status.st_size),
            modifiedNanoseconds: Int64(status.st_mtim.tv_sec) * 1_000_000_000 + Int64(status.st_mtim.tv_nsec))
    }
}

/// The polling timer: Dispatch runs its handler; the watcher keeps it only to cancel it.
struct PollTimer: @unchecked Sendable {
    let source: any DispatchSourceTimer
}
