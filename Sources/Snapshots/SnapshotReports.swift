import Foundation
import TabStageApp

/// The files a run can leave for people and CI systems: an HTML page showing every failure side
/// by side, and a JUnit XML file. Every piece of text from a snapshot is escaped.
public enum SnapshotReports {
    // MARK: HTML

    /// A self-contained page (its images inline), valid HTML.
    public static func html(_ run: SnapshotRun, imagesIn directory: URL) -> String {
        var page = """
            <!doctype html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <title>Snapshot report</title>
            <style>
            body { font: 14px/1.4 system-ui, sans-serif; margin: 1.5rem; }
            table { border-collapse: collapse; width: 100%; table-layout: fixed; font: 12px/1.4 ui-monospace, monospace; }
            th, td { border: 1px solid #ddd; padding: 0 .4rem; vertical-align: top; white-space: pre-wrap; overflow-wrap: anywhere; }
            th.number, td.number { width: 3.5rem; text-align: right; color: #666; }
            td.removed { background: #fdecea; } td.added { background: #e6f6ea; }
            td.removed mark { background: #f5b5ae; } td.added mark { background: #a7e3b5; }
            tr.gap td { background: #f4f4f4; color: #666; text-align: center; }
            figure { display: inline-block; margin: 0 1rem 1rem 0; } img { image-rendering: pixelated; width: 160px; }
            </style>
            </head>
            <body>
            <h1>Snapshot report</h1>

            """
        page += "<p>\(escaped(run.summary))</p>\n"
        let problems = run.results.filter { $0.verdict != .matched }
        if problems.isEmpty { page += "<p>Every snapshot matched.</p>\n" }
        for (index, result) in problems.enumerated() {
            page += "<section aria-labelledby=\"result-\(index)\">\n"
            page += "<h2 id=\"result-\(index)\">\(escaped(title(of: result)))</h2>\n"
            if let problem = result.problem { page += "<p>\(escaped(problem))</p>\n" }
            if let diff = result.diff { page += sideBySide(diff) }
            let images = result.files.filter { $0.hasSuffix(".png") }
            for file in images {
                guard let data = FileManager.default.contents(atPath: directory.appendingPathComponent(file).path)
                else { continue }
                page +=
                    "<figure><img alt=\"\(escaped(file))\" src=\"data:image/png;base64,\(data.base64EncodedString())\">"
                page += "<figcaption>\(escaped(file))</figcaption></figure>\n"
            }
            page += "</section>\n"
        }
        return page + "</body>\n</html>\n"
    }

    static func title(of result: SnapshotRun.Result) -> String {
        let word: String
        switch result.verdict {
        case .matched: word = "matched"
        case .failed: word = "failed"
        case .updated: word = "updated"
        case .new: word = "new"
        case .obsolete(let deleted): word = deleted ? "pruned" : "obsolete"
        }
        return "\(result.name): \(word)"
    }

    /// The diff's hunks in two columns, expected and actual, a changed line beside the line it
    /// became, with the changed words marked.
    static func sideBySide(_ diff: LineDiff) -> String {
        var table = """
            <table>
            <thead><tr><th class="number" scope="col">line</th><th scope="col">expected</th>\
            <th class="number" scope="col">line</th><th scope="col">actual</th></tr></thead>
            <tbody>

            """
        for hunk in diff.hunks(context: 3) {
            table +=
                "<tr class=\"gap\"><td colspan=\"4\">\(escaped("@@ -\(hunk.oldStart),\(hunk.oldCount) +\(hunk.newStart),\(hunk.newCount) @@"))</td></tr>\n"
            let steps = Array(diff.steps[hunk.steps])
            var index = 0
            while index < steps.count {
                let step = steps[index]
                if step.kind == .same {
                    let text = escaped(step.text)
                    table += "<tr><td class=\"number\">\(step.oldLine + 1)</td><td>\(text)</td>"
                    table += "<td class=\"number\">\(step.newLine + 1)</td><td>\(text)</td></tr>\n"
                    index += 1
                    continue
                }
                var removedEnd = index
                while removedEnd < steps.count, steps[removedEnd].kind == .removed { removedEnd += 1 }
                var addedEnd = removedEnd
                while addedEnd < steps.count, steps[addedEnd].kind == .added { addedEnd += 1 }
                let removed = Array(steps[index..<removedEnd])
                let added = Array(steps[removedEnd..<addedEnd])
                for row in 0..<max(removed.count, added.count) {
                    let old = row < removed.count ? removed[row] : nil
                    let new = row < added.count ? added[row] : nil
                    let words = old.flatMap { old in new.map { WordDiff(old: old.text, new: $0.text) } }
                    table += "<tr>"
                    if let old {
                        table += "<td class=\"number\">\(old.oldLine + 1)</td><td class=\"removed\">"
                        table += marked(old.text, words?.oldMarks) + "</td>"
                    } else {
                        table += "<td class=\"number\"></td><td></td>"
                    }
                    if let new {
                        table += "<td class=\"number\">\(new.newLine + 1)</td><td class=\"added\">"
                        table += marked(new.text, words?.newMarks) + "</td>"
                    } else {
                        table += "<td class=\"number\"></td><td></td>"
                    }
                    table += "</tr>\n"
                }
                index = addedEnd
            }
        }
        return table + "</tbody>\n</table>\n"
    }

    /// `text` escaped, its marked characters inside `<mark>`.
    static func marked(_ text: String, _ marks: [Bool]?) -> String {
        guard let marks else { return escaped(text) }
        var output = ""
        var run = ""
        var inside = false
        func flush() {
            guard !run.isEmpty else { return }
            output += inside ? "<mark>\(escaped(run))</mark>" : escaped(run)
            run = ""
        }
        for (character, isMarked) in zip(text, marks) {
            if isMarked != inside {
                flush()
                inside = isMarked
            }
            run.append(character)
        }
        flush()
        return output
    }

    /// Text for HTML content and quoted attributes. Control characters other than tab and
    /// newline (which HTML forbids) are written as U+FFFD.
    static func escaped(_ text: String) -> String {
        var output = ""
        output.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": output += "&amp;"
            case "<": output += "&lt;"
            case ">": output += "&gt;"
            case "\"": output += "&quot;"
            case "'": output += "&#39;"
            case "\t", "\n": output.unicodeScalars.append(scalar)
            default:
                let value = scalar.value
                let isControl = value < 0x20 || (0x7F...0x9F).contains(value)
                let isNonCharacter = (0xFDD0...0xFDEF).contains(value) || value & 0xFFFE == 0xFFFE
                output.unicodeScalars.append(isControl || isNonCharacter ? "\u{FFFD}" : scalar)
            }
        }
        return output
    }

    // MARK: JUnit

    /// One test case a snapshot, a failure for each that fails the run, with its plain diff.
    public static func junit(_ run: SnapshotRun, listPath: String) -> String {
        let failures = run.results.filter(\.fails).count
        var xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        xml += "<testsuites tests=\"\(run.results.count)\" failures=\"\(failures)\">\n"
        xml += "  <testsuite name=\"tabstage snapshot\" tests=\"\(run.results.count)\" failures=\"\(failures)\""
        xml += " errors=\"0\" skipped=\"0\">\n"
        for result in run.results {
            var attributes = "classname=\"\(escaped(listPath))\" name=\"\(escaped(result.name))\""
            if let line = result.line { attributes += " file=\"\(escaped(listPath))\" line=\"\(line)\"" }
            guard result.fails else {
                xml += "    <testcase \(attributes)/>\n"
                continue
            }
            let message = escaped(result.problem ?? title(of: result))
            let body = result.diff.map { escaped($0.unified()) } ?? message
            xml += "    <testcase \(attributes)>\n"
            xml += "      <failure message=\"\(message)\" type=\"\(escaped(title(of: result)))\">\(body)</failure>\n"
            xml += "    </testcase>\n"
        }
        return xml + "  </testsuite>\n</testsuites>\n"
    }
}
