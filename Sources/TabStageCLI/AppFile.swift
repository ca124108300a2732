import Foundation
import Snapshots
import TabModel
import TabStageApp

/// The apps a command works with: the built-in demos, and first the app of `--app FILE` when
/// given (replacing a demo of the same id). The file is checked as by `tabstage check`.
enum AppFile {
    /// nil after printing why the file cannot be used.
    static func apps(adding path: String?, command: String, console: Console) -> [AppDescription]? {
        loaded(from: path.map { [$0] } ?? [], command: command, console: console)?.apps
    }

    /// An app file as it was read: the watcher of `serve --watch` compares with it.
    struct Loaded {
        var path: String
        var appID: String
        var bytes: [UInt8]
    }

    /// What a page may say of the file at `path`: its name, without the folder it is in.
    static func shownName(_ path: String) -> String {
        URL(fileURLWithPath: path).lastPathComponent
    }

    /// The apps of `paths` (each replacing a demo or an earlier file with its id) first, then
    /// the demos unless `withDemos` is false (`serve --no-demos`) or a file says
    /// `"showsDemos": false`; nil after printing every problem of every file that cannot be used.
    static func loaded(from paths: [String], withDemos: Bool = true, command: String, console: Console) -> (
        apps: [AppDescription], files: [Loaded]
    )? {
        var apps: [AppDescription] = []
        var files: [Loaded] = []
        var isUsable = true
        for path in paths {
            guard let data = FileManager.default.contents(atPath: path) else {
                console.err("tabstage \(command): cannot read '\(path)'\n")
                isUsable = false
                continue
            }
            switch AppLoading.load(json: Array(data), filePath: path) {
            case .success(let app):
                apps.removeAll { $0.id == app.id }
                files.removeAll { $0.appID == app.id }
                apps.append(app)
                files.append(Loaded(path: path, appID: app.id, bytes: Array(data)))
            case .failure(let report):
                for problem in report.problems { console.err(problem.line(in: path) + "\n") }
                isUsable = false
            }
        }
        guard isUsable else { return nil }
        guard withDemos, apps.allSatisfy(\.showsDemos) else { return (apps, files) }
        let ids = Set(apps.map(\.id))
        return (apps + BuiltInApps.all.filter { !ids.contains($0.id) }, files)
    }
}
