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
/// truncate-then-write or burst of writes is read once, whole.
final class AppFileWatcher: Sendable {
    /// What a file looked like on disk: any difference means it changed.
    struct Signature: Equatable {
        var inode: UInt64
        var size: Int64
        var modifiedNanoseconds: Int64
    }

    /// A file's new look, and when it was first seen.
    private struct Pending {
        var signature: Signature?
        var since: ContinuousClock.Instant
    }

    private struct Watched {
        let path: String
        /// The id of the app the file last described validly.
        var appID: String
        /// The signature and the bytes last read.
        var signature: Signature?
        var bytes: [UInt8]
        /// A signature seen since, waiting to settle.
        var pending: Pending?
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
            files.map { Watched(path: $0.path, appID: $0.appID, signature: Self.signature($0.path), bytes: $0.bytes) })
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
                let current = Self.signature(files[index].path)
                if let pending = files[index].pending, pending.signature == current {
                    return now - pending.since >= settle
                }
                if current != files[index].signature || files[index].pending != nil {
                    files[index].pending = Pending(signature: current, since: now)
                }
                return false
            }
            if ready { load(index, force: false) }
        }
    }

    /// Reads file `index` and replaces its app or reports its problems.
    private func load(_ index: Int, force: Bool) {
        let (path, appID, lastBytes) = files.withLock { ($0[index].path, $0[index].appID, $0[index].bytes) }
        let signature = Self.signature(path)
        guard let data = FileManager.default.contents(atPath: path) else {
            // Between an editor's rename and its new file, or deleted: the last good one serves.
            files.withLock { $0[index].pending = nil }
            if force { report("tabstage serve: cannot read '\(path)'; still serving the last good version\n") }
            return
        }
        let bytes = Array(data)
        files.withLock { files in
            files[index].pending = nil
            files[index].signature = signature
            files[index].bytes = bytes
        }
        guard force || bytes != lastBytes else { return }
        switch AppLoading.load(json: bytes) {
        case .success(let app):
            guard application.replaceApp(appID, with: app) else {
                let problem = "its app id '\(app.id)' is another served app's"
                report("\(path): \(problem)\n")
                application.reportProblems(["\(AppFile.shownName(path)): \(problem)"], forApp: appID)
                return
            }
            files.withLock { $0[index].appID = app.id }
            report("tabstage serve: reloaded \(path) (app '\(app.id)', \(app.tabs.count) tabs)\n")
        case .failure(let validation):
            // The log has the full path; the pages' banner (on the projector) the file's name.
            for problem in validation.problems { report(problem.line(in: path) + "\n") }
            application.reportProblems(
                validation.problems.map { $0.line(in: AppFile.shownName(path)) }, forApp: appID)
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
