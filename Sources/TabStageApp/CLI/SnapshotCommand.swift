import Foundation
import HTTPServer
import TabModel
import Views

/// `tabstage snapshot record|verify`: replays a list of requests against an app in a fresh
/// deterministic session and writes or compares one snapshot file per request.
enum SnapshotCommand: Subcommand {
    static let name = "snapshot"
    static let summary = "Record or verify HTTP snapshots of a list of requests"
    static let usage = """
        Usage: tabstage snapshot record|verify --requests LIST --dir DIR [--app FILE]

        Replays LIST (one request a line: 'GET /path' or 'POST /path field=value&...'; blank
        lines and lines starting with # are skipped) in one fresh deterministic session, as one
        browser carrying its cookie. 'record' writes DIR/NNN-method-path.txt per request;
        'verify' compares, prints a diff for each mismatch and exits 1, or exits 0 when all match.
        --app adds an app description (JSON, as 'tabstage check') to the built-in demos.

        """
    static let options: [OptionSpec] = [OptionSpec("app"), OptionSpec("requests"), OptionSpec("dir")]

    struct ReplayRequest: Equatable {
        var line: Int
        var method: HTTPMethod
        var path: String
        var form: String?

        /// `007-post-restaurant-bottom-home-action`.
        var snapshotName: String {
            let number = String(line)
            return String(repeating: "0", count: max(0, 3 - number.count)) + number + "-"
                + method.rawValue.lowercased() + "-" + Self.slug(path)
        }

        static func slug(_ path: String) -> String {
            var slug = ""
            for character in path.lowercased() {
                if character.isASCII && (character.isLetter || character.isNumber) {
                    slug.append(character)
                } else if !slug.isEmpty && slug.last != "-" {
                    slug.append("-")
                }
            }
            while slug.last == "-" { slug.removeLast() }
            return slug.isEmpty ? "root" : String(slug.prefix(60))
        }
    }

    struct RequestListError: Error, CustomStringConvertible {
        let description: String
    }

    static func parse(_ text: String) throws(RequestListError) -> [ReplayRequest] {
        var requests: [ReplayRequest] = []
        for (index, rawLine) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = rawLine.trimmingCharacters(in: .whitespaces)
            if line.isEmpty || line.hasPrefix("#") { continue }
            let parts = line.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
            guard parts.count >= 2, parts[1].hasPrefix("/") else {
                throw RequestListError(description: "line \(index + 1): expected 'GET /path' or 'POST /path form'")
            }
            switch parts[0] {
            case "GET" where parts.count == 2:
                requests.append(ReplayRequest(line: index + 1, method: .get, path: parts[1], form: nil))
            case "POST" where parts.count <= 3:
                requests.append(
                    ReplayRequest(
                        line: index + 1, method: .post, path: parts[1], form: parts.count == 3 ? parts[2] : ""))
            default:
                throw RequestListError(description: "line \(index + 1): expected 'GET /path' or 'POST /path form'")
            }
        }
        return requests
    }

    static func run(_ parsed: ParsedArguments, console: Console) -> Int32 {
        guard parsed.positionals.count == 1, let mode = parsed.positionals.first, ["record", "verify"].contains(mode)
        else {
            return TabStageCLI.usageError(UsageError("say 'record' or 'verify'"), for: self, console: console)
        }
        guard let listPath = parsed.value("requests"), let directory = parsed.value("dir") else {
            return TabStageCLI.usageError(UsageError("--requests and --dir are required"), for: self, console: console)
        }
        guard let apps = AppFile.apps(adding: parsed.value("app"), command: name, console: console) else {
            return ExitCode.failure
        }
        let requests: [ReplayRequest]
        do throws(RequestListError) {
            guard let data = FileManager.default.contents(atPath: listPath) else {
                throw RequestListError(description: "cannot read the file")
            }
            requests = try parse(String(decoding: data, as: UTF8.self))
        } catch {
            console.err("tabstage snapshot: \(listPath): \(error.description)\n")
            return ExitCode.failure
        }
        let store = SnapshotStore(directory: URL(fileURLWithPath: directory), mode: mode == "record" ? .all : .never)
        var failures = 0
        for (request, snapshot) in replay(requests, apps: apps) {
            do {
                switch try store.check(snapshot, named: request.snapshotName) {
                case .matched: console.out("\(request.snapshotName): ok\n")
                case .recorded: console.out("\(request.snapshotName): recorded\n")
                case .missing(let path):
                    failures += 1
                    console.out("\(request.snapshotName): no snapshot at \(path)\n")
                case .mismatch(let diff):
                    failures += 1
                    console.out("\(request.snapshotName): does not match\n\(diff)")
                }
            } catch {
                console.err("tabstage snapshot: cannot write in '\(directory)': \(error)\n")
                return ExitCode.failure
            }
        }
        return failures == 0 ? ExitCode.success : ExitCode.failure
    }

    /// Answers each request in order from one deterministic application, carrying the cookie.
    static func replay(_ requests: [ReplayRequest], apps: [AppDescription]) -> [(ReplayRequest, HTTPSnapshot)] {
        let application = StageApplication.deterministic(apps: apps)
        var router = Router()
        application.addRoutes(to: &router)
        var cookie: String?
        var csrfToken: String?
        var results: [(ReplayRequest, HTTPSnapshot)] = []
        for replayed in requests {
            var headers: HTTPHeaders = ["Host": "localhost"]
            if let cookie { headers["Cookie"] = cookie }
            var body: [UInt8] = []
            if let form = replayed.form {
                headers["Content-Type"] = "application/x-www-form-urlencoded"
                // A browser submits the token of the page its form came from.
                var fields = form
                if let csrfToken, !form.split(separator: "&").contains(where: { $0.hasPrefix("csrf=") }) {
                    fields += (fields.isEmpty ? "" : "&") + "csrf=" + csrfToken
                }
                body = Array(fields.utf8)
            }
            let response: Response
            do {
                response = router.respond(
                    to: try Request(method: replayed.method, target: replayed.path, headers: headers, body: body))
            } catch {
                response = Response.statusPage(.badRequest, message: error.description)
            }
            if let setCookie = response.headers["Set-Cookie"], let pair = setCookie.split(separator: ";").first {
                cookie = String(pair)
            }
            if let token = FormToken.csrfToken(in: response.body) { csrfToken = token }
            let snapshot = HTTPSnapshot(
                statusLine: "HTTP/1.1 \(response.status.rawValue) \(response.status.reasonPhrase)",
                headers: response.headers.fields.map { (name: $0.name, value: $0.value) }, body: response.body)
            results.append((replayed, snapshot))
        }
        return results
    }
}
