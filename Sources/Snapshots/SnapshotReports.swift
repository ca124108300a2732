import Foundation
import TabStageApp
import Views

/// The files a run can leave for people and CI systems: an HTML page showing every failure side
/// by side, and a JUnit XML file. Every piece of text from a snapshot is escaped.
public enum SnapshotReports {
    // MARK: HTML

    /// A self-contained page (its images inline), valid HTML.
    public static func html(_ run: SnapshotRun, imagesIn directory: URL) -> String {
        var html = HTMLWriter()
        html.raw(
            """
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

            """)
        paragraph(run.summary, into: &html)
        let problems = run.results.filter { $0.verdict != .matched }
        if problems.isEmpty { html.raw("<p>Every snapshot matched.</p>\n") }
        for (index, result) in problems.enumerated() {
            html.raw("<section aria-labelledby=\"result-")
            html.number(index)
            html.raw("\">\n<h2 id=\"result-")
            html.number(index)
            html.raw("\">")
            html.text(shown(title(of: result)))
            html.raw("</h2>\n")
            if let problem = result.problem { paragraph(problem, into: &html) }
            if let diff = result.diff { sideBySide(diff, into: &html) }
            for file in result.files where file.hasSuffix(".png") {
                guard let data = FileManager.default.contents(atPath: directory.appendingPathComponent(file).path)
                else { continue }
                html.raw("<figure><img")
                html.attribute("alt", shown(file))
                html.attribute("src", "data:image/png;base64," + data.base64EncodedString())
                html.raw("><figcaption>")
                html.text(shown(file))
                html.raw("</figcaption></figure>\n")
            }
            html.raw("</section>\n")
        }
        html.raw("</body>\n</html>\n")
        return String(decoding: html.finish(), as: UTF8.self)
    }

    private static func paragraph(_ text: String, into html: inout HTMLWriter) {
        html.raw("<p>")
        html.text(shown(text))
        html.raw("</p>\n")
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
    static func sideBySide(_ diff: LineDiff, into html: inout HTMLWriter) {
        html.raw(
            """
            <table>
            <thead><tr><th class="number" scope="col">line</th><th scope="col">expected</th>\
            <th class="number" scope="col">line</th><th scope="col">actual</th></tr></thead>
            <tbody>

            """)
        for hunk in diff.hunks(context: 3) {
            html.raw("<tr class=\"gap\"><td colspan=\"4\">")
            html.text("@@ -\(hunk.oldStart),\(hunk.oldCount) +\(hunk.newStart),\(hunk.newCount) @@")
            html.raw("</td></tr>\n")
            let steps = Array(diff.steps[hunk.steps])
            var index = 0
            while index < steps.count {
                let step = steps[index]
                if step.kind == .same {
                    html.raw("<tr>")
                    cell(line: step.oldLine, step.text, marks: nil, kind: nil, into: &html)
                    cell(line: step.newLine, step.text, marks: nil, kind: nil, into: &html)
                    html.raw("</tr>\n")
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
                    html.raw("<tr>")
                    if let old {
                        cell(line: old.oldLine, old.text, marks: words?.oldMarks, kind: "removed", into: &html)
                    } else {
                        html.raw("<td class=\"number\"></td><td></td>")
                    }
                    if let new {
                        cell(line: new.newLine, new.text, marks: words?.newMarks, kind: "added", into: &html)
                    } else {
                        html.raw("<td class=\"number\"></td><td></td>")
                    }
                    html.raw("</tr>\n")
                }
                index = addedEnd
            }
        }
        html.raw("</tbody>\n</table>\n")
    }

    /// A line's number (from 0, shown from 1) and its text, its marked characters inside `<mark>`.
    private static func cell(
        line: Int, _ text: String, marks: [Bool]?, kind: StaticString?, into html: inout HTMLWriter
    ) {
        html.raw("<td class=\"number\">")
        html.number(line + 1)
        html.raw("</td><td")
        if let kind {
            html.openAttribute("class")
            html.raw(kind)
            html.closeAttribute()
        }
        html.raw(">")
        let shownText = shown(text)
        guard let marks, marks.count == shownText.count else {
            html.text(shownText)
            html.raw("</td>")
            return
        }
        var run = ""
        var inside = false
        for (character, isMarked) in zip(shownText, marks) {
            if isMarked != inside {
                mark(run, inside, into: &html)
                run = ""
                inside = isMarked
            }
            run.append(character)
        }
        mark(run, inside, into: &html)
        html.raw("</td>")
    }

    private static func mark(_ run: String, _ inside: Bool, into html: inout HTMLWriter) {
        guard !run.isEmpty else { return }
        if inside { html.raw("<mark>") }
        html.text(run)
        if inside { html.raw("</mark>") }
    }

    /// `text` as a report may show it: control characters other than tab and newline, and
    /// noncharacters, which neither HTML nor XML allows, become U+FFFD (escaping is the writer's).
    static func shown(_ text: String) -> String {
        var output = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            let value = scalar.value
            let isControl = (value < 0x20 && scalar != "\t" && scalar != "\n") || (0x7F...0x9F).contains(value)
            let isNonCharacter = (0xFDD0...0xFDEF).contains(value) || value & 0xFFFE == 0xFFFE
            output.append(isControl || isNonCharacter ? "\u{FFFD}" : scalar)
        }
        return String(output)
    }

    // MARK: JUnit

    /// One test case a snapshot, a failure for each that fails the run, with its plain diff. XML
    /// escapes what HTML escapes, so it is written through the same writer.
    public static func junit(_ run: SnapshotRun, listPath: String) -> String {
        let failures = run.results.filter(\.fails).count
        var xml = HTMLWriter()
        xml.raw("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites")
        xml.attribute("tests", String(run.results.count))
        xml.attribute("failures", String(failures))
        xml.raw(">\n  <testsuite name=\"tabstage snapshot\"")
        xml.attribute("tests", String(run.results.count))
        xml.attribute("failures", String(failures))
        xml.raw(" errors=\"0\" skipped=\"0\">\n")
        for result in run.results {
            xml.raw("    <testcase")
            xml.attribute("classname", shown(listPath))
            xml.attribute("name", shown(result.name))
            if let line = result.line {
                xml.attribute("file", shown(listPath))
                xml.attribute("line", String(line))
            }
            guard result.fails else {
                xml.raw("/>\n")
                continue
            }
            let message = shown(result.problem ?? title(of: result))
            xml.raw(">\n      <failure")
            xml.attribute("message", message)
            xml.attribute("type", shown(title(of: result)))
            xml.raw(">")
            xml.text(result.diff.map { shown($0.unified()) } ?? message)
            xml.raw("</failure>\n    </testcase>\n")
        }
        xml.raw("  </testsuite>\n</testsuites>\n")
        return String(decoding: xml.finish(), as: UTF8.self)
    }
}
