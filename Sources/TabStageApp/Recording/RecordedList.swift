import HTTPServer
import Sessions

/// A recording written as a request list for `tabstage snapshot test` (docs/snapshots.md): a
/// header comment naming the app, the date and the command, then one request a line with its
/// headers and the status it answered, each named after its tab and action
/// (`# as: wallet-after-top-up`). Pure: the date is passed in.
public enum RecordedList {
    /// - Parameters:
    ///   - appName: the app's name, for the header.
    ///   - date: `2026-12-04`, the day the recording started.
    public static func text(of recording: TestRecording, appName: String, date: String) -> String {
        let appID = recording.appID
        var lines = [
            "# A TabStage test of \(appName) (\(appID)), recorded on \(date) with \"Record a test\".",
            "# It replays in a fresh session, which carries its own cookie and CSRF tokens.",
            "# Run it (leave out --app for a built-in demo; the first run records, the next ones compare):",
            "#   tabstage snapshot test --app \(appID).json --requests \(fileName(appID: appID)) --dir snapshots",
        ]
        if recording.droppedCount > 0 {
            lines.append(
                "# The oldest \(recording.droppedCount) requests were dropped: a recording keeps \(TestRecording.limit)."
            )
        }
        var names = Names()
        if let name = recording.startedLoggedInAs {
            // The recording started logged in; the replay's fresh session logs in first.
            lines += ["", "# Logged in when the recording started.", "GET /login" + names.comment("login-form")]
            lines.append("POST /login name=\(PercentDecoding.encode(name))&next=/" + names.comment("login-first"))
            lines.append("  expect 303")
        }
        var previous: RecordedRequest?
        for request in recording.requests {
            lines.append("")
            var line = request.kind + " " + request.target
            if let form = request.form, !form.isEmpty {
                line += " " + form.map { $0.name + "=" + PercentDecoding.encode($0.value) }.joined(separator: "&")
            }
            lines.append(line + names.comment(baseName(of: request, after: previous)))
            lines += request.headers.map { "  \($0.name): \($0.value)" }
            lines.append("  expect \(request.status)")
            previous = request
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// `coffee-test.txt`: the download's file name.
    public static func fileName(appID: String) -> String { appID + "-test.txt" }

    /// `wallet`, `wallet-tap`, `wallet-top-up`, `wallet-after-top-up`, `account-refused`,
    /// `menu-lang-zh-tw`, `login`, `stage`: the path after the layout (or the app), then what was
    /// done.
    static func baseName(of request: RecordedRequest, after previous: RecordedRequest?) -> String {
        let pathAndQuery = request.target.split(separator: "?", maxSplits: 1)
        var segments = pathAndQuery.first.map { $0.split(separator: "/").map(String.init) } ?? []
        // The app and the layout (`/coffee/bottom/menu`), or the app (`/coffee/stage`).
        segments.removeFirst(segments.count > 2 ? 2 : segments.count == 2 ? 1 : 0)
        var action: String?
        if request.kind == "POST" {
            if segments.last == "action" { segments.removeLast() }
            action = request.form?.first { $0.name == "action" }?.value
        }
        var parts = segments.isEmpty ? ["home"] : segments
        if pathAndQuery.count == 2 { parts.append(String(pathAndQuery[1])) }
        switch request.kind {
        case "TAP": parts.append("tap")
        case "FRAGMENT": parts.append("fragment")
        case "POST": if let action { parts.append(action) }
        default:
            if let previous, previous.kind == "POST", previous.status == 303 {
                let done = previous.form?.first { $0.name == "action" }?.value ?? slug(previous.target)
                parts = [parts.joined(separator: "-"), "after", done]
            }
        }
        if request.status == 403 { parts.append("refused") }
        return slug(parts.joined(separator: "-"))
    }

    /// Lowercase letters, digits and single dashes, at most 60 characters.
    static func slug(_ text: String) -> String {
        var slug = ""
        for character in text.lowercased() {
            if character.isASCII && (character.isLetter || character.isNumber) {
                slug.append(character)
            } else if !slug.isEmpty, slug.last != "-" {
                slug.append("-")
            }
        }
        while slug.last == "-" { slug.removeLast() }
        slug = String(slug.prefix(60))
        while slug.last == "-" { slug.removeLast() }
        return slug.isEmpty ? "request" : slug
    }

    /// Hands out each name once: `wallet`, then `wallet-2`, `wallet-3`.
    struct Names {
        var taken: Set<String> = []

        mutating func comment(_ base: String) -> String {
            var name = base
            var counter = 1
            while taken.contains(name) {
                counter += 1
                name = "\(base)-\(counter)"
            }
            taken.insert(name)
            return "  # as: " + name
        }
    }
}
