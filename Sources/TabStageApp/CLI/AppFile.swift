import Foundation
import TabModel

/// The apps a command works with: the built-in demos, and first the app of `--app FILE` when
/// given (replacing a demo of the same id). The file is checked as by `tabstage check`.
enum AppFile {
    /// nil after printing why the file cannot be used.
    static func apps(adding path: String?, command: String, console: Console) -> [AppDescription]? {
        let demos = BuiltInApps.all
        guard let path else { return demos }
        guard let data = FileManager.default.contents(atPath: path) else {
            console.err("tabstage \(command): cannot read '\(path)'\n")
            return nil
        }
        switch AppLoading.load(json: Array(data)) {
        case .success(let app):
            return [app] + demos.filter { $0.id != app.id }
        case .failure(let report):
            for problem in report.problems { console.err(problem.line(in: path) + "\n") }
            return nil
        }
    }
}
