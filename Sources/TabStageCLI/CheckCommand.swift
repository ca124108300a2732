import Foundation
import Snapshots
import TabModel
import TabStageApp
import Views

/// `tabstage check FILE...`: validates app description files and prints every problem.
enum CheckCommand: Subcommand {
    static let name = "check"
    static let summary = "Check app description files"
    static let usage = """
        Usage: tabstage check FILE...

        Prints 'FILE: ok (N tabs, app 'ID', languages TAGS)' for a valid app description, or every problem
        at once in reading order, one a line: 'FILE:LINE:COLUMN: PATH: MESSAGE', the path
        naming the tab's id ('tabs[4] 'savings'.title'). A valid file may have warnings after
        its ok line, 'FILE: warning: PATH: MESSAGE': a tint too light for text, a title its
        bar cuts. Exits 1 when a file is invalid or unreadable.

        """
    static let options: [OptionSpec] = []

    static func run(_ parsed: ParsedArguments, console: Console) -> Int32 {
        guard !parsed.positionals.isEmpty else {
            return TabStageCLI.usageError(UsageError("give at least one FILE"), for: self, console: console)
        }
        var code = ExitCode.success
        for file in parsed.positionals {
            guard let data = FileManager.default.contents(atPath: file) else {
                console.err("tabstage check: cannot read '\(file)': \(whyUnreadable(file))\n")
                code = ExitCode.failure
                continue
            }
            switch AppLoading.load(json: Array(data), filePath: file) {
            case .success(let app):
                console.out(
                    "\(file): ok (\(app.tabs.count) tabs, app '\(app.id)', languages "
                        + "\(app.languages.joined(separator: ", ")))\n")
                for line in screenLines(of: app) { console.out("\(file): \(line)\n") }
                for warning in CheckWarnings.lines(for: app) { console.out("\(file): warning: \(warning)\n") }
            case .failure(let report):
                for problem in report.problems { console.out(problem.line(in: file) + "\n") }
                code = ExitCode.failure
            }
        }
        return code
    }

    /// One line per screen page: its images (the first's size in points), its hotspots and its
    /// details, so that the designer sees what was read.
    static func screenLines(of app: AppDescription) -> [String] {
        func counted(_ count: Int, _ noun: String) -> String { "\(count) \(noun)\(count == 1 ? "" : "s")" }
        return app.tabs.compactMap { tab in
            guard case .screen(let page) = tab.page.content else { return nil }
            let size = page.screen.size
            var parts = [
                counted(page.images.count, "image")
                    + " (\(page.screen.images[0].file), \(size.width)×\(size.height) points)",
                counted(page.screen.hotspots.count + page.details.map(\.screen.hotspots.count).reduce(0, +), "hotspot"),
            ]
            if !page.details.isEmpty { parts.append("details " + page.details.map(\.id).joined(separator: ", ")) }
            return "screen '\(tab.id)': " + parts.joined(separator: ", ")
        }
    }

    private static func whyUnreadable(_ file: String) -> String {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: file, isDirectory: &isDirectory) else { return "no such file" }
        return isDirectory.boolValue ? "it is a directory" : "permission denied"
    }
}
