import Foundation
import HTTPTesting
import Snapshots
import TabModel
import TabStageApp

/// `tabstage snapshot test`: replays a request list against an app in a fresh deterministic
/// session and compares one snapshot file per request (docs/snapshots.md is the tutorial).
enum SnapshotCommand: Subcommand {
    static let name = "snapshot"
    static let summary = "Test a prototype against snapshots of a list of requests"
    static let usage = """
        Usage: tabstage snapshot test --requests LIST --dir DIR [--app FILE | --url http://HOST[:PORT]]
                                      [--record missing|failed|all|never] [--prune]
                                      [--report FILE.html] [--junit FILE.xml]
               tabstage snapshot record ...   (test --record all)
               tabstage snapshot verify ...   (test --record never)

        Replays LIST in one fresh deterministic session, as one browser carrying its cookie and
        its forms' CSRF token, against the built-in demos plus the app of --app (checked as by
        'tabstage check'); with --url, against that running TabStage instead (HOST a name, an IPv4
        address or an IPv6 one in brackets; plain http), its session ids, tokens, times, follow
        codes and live versions redacted and its prototype section read from /{app}/events.json. Each request's response is compared with DIR/NAME.txt (and NAME.png
        for an icon), NAME being the request's name. LIST holds one request a line:

          GET /coffee/bottom/menu                      # as: menu-first-visit
            Accept-Language: zh-TW                     (headers, indented under it)
            expect 200                                 (the status it must answer)
          POST /coffee/bottom/menu/action action=search&q="flat white"
          TAP /coffee/bottom/stamps                    (a bar tap: X-TabStage-Source: tap)
          FRAGMENT /coffee/bottom/stamps               (the script's X-TabStage-Fragment: 1)
          name: NAME                                   (names the next request)
          redact: HEADER  or  redact: /PATTERN/        (values hidden in every snapshot)

        --record says what is written: 'missing' (new snapshots), 'failed' (new and changed
        ones), 'all', or 'never'. Without it, SNAPSHOT_TESTING_RECORD decides, else 'never' when
        CI is set, else 'missing'; a snapshot written without --record fails the run once, so
        that someone reads it. Files in DIR that no request is named for are obsolete: they fail
        the run, and --prune deletes them. --report writes every failure side by side in an HTML
        page; --junit writes a JUnit XML file. The exit status is 0 only when everything matched.

        """
    static let options: [OptionSpec] = [
        OptionSpec("app"), OptionSpec("url"), OptionSpec("requests"), OptionSpec("dir"), OptionSpec("record"),
        .flag("prune"),
        OptionSpec("report"), OptionSpec("junit"),
    ]

    static func run(_ parsed: ParsedArguments, console: Console) -> Int32 {
        let options: SnapshotRun.Options
        do {
            options = try runOptions(parsed, environment: console.environment)
        } catch {
            return TabStageCLI.usageError(error, for: self, console: console)
        }
        guard let listPath = parsed.value("requests"), let directory = parsed.value("dir") else {
            return TabStageCLI.usageError(UsageError("--requests and --dir are required"), for: self, console: console)
        }
        var server: HTTPURL?
        if let url = parsed.value("url") {
            guard parsed.value("app") == nil else {
                return TabStageCLI.usageError(
                    UsageError("--app and --url exclude each other: the server serves its own apps"), for: self,
                    console: console)
            }
            do throws(HTTPURL.Problem) {
                let address = try HTTPURL(url)
                guard address.path == "/" else {
                    throw HTTPURL.Problem(
                        description: "the server's address has no path: http://HOST[:PORT], not '\(url)'")
                }
                server = address
            } catch {
                return TabStageCLI.usageError(UsageError("--url: \(error)"), for: self, console: console)
            }
        }
        guard let apps = AppFile.apps(adding: parsed.value("app"), command: name, console: console) else {
            return ExitCode.failure
        }
        guard let data = FileManager.default.contents(atPath: listPath) else {
            console.err("tabstage snapshot: cannot read '\(listPath)'\n")
            return ExitCode.failure
        }
        let list: RequestList
        do {
            list = try RequestList(parsing: String(decoding: data, as: UTF8.self))
        } catch {
            console.err("\(listPath):\(error.description)\n")
            return ExitCode.failure
        }
        let folder = URL(fileURLWithPath: directory)
        var run = SnapshotRun(store: SnapshotStore(directory: folder, mode: options.mode), options: options)
        do {
            if let server { try run.run(list, server: server) } else { try run.run(list, apps: apps) }
        } catch let error as UnreachableServer {
            console.err("tabstage snapshot: \(parsed.value("url") ?? ""): \(error.description)\n")
            return ExitCode.failure
        } catch {
            console.err("tabstage snapshot: cannot write in '\(directory)': \(error.localizedDescription)\n")
            return ExitCode.failure
        }
        var command = "tabstage snapshot test"
        if let app = parsed.value("app") { command += " --app \(app)" }
        if let url = parsed.value("url") { command += " --url \(url)" }
        command += " --requests \(listPath) --dir \(directory)"
        console.out(
            run.report(listPath: listPath, directory: directory, command: command, highlight: console.outIsTerminal))
        do {
            if let path = parsed.value("report") {
                try Data(SnapshotReports.html(run, imagesIn: folder).utf8).write(to: URL(fileURLWithPath: path))
            }
            if let path = parsed.value("junit") {
                try Data(SnapshotReports.junit(run, listPath: listPath).utf8).write(to: URL(fileURLWithPath: path))
            }
        } catch {
            console.err("tabstage snapshot: cannot write the report: \(error.localizedDescription)\n")
            return ExitCode.failure
        }
        return run.passed ? ExitCode.success : ExitCode.failure
    }

    /// The mode from `--record`, the alias, or the environment, and whether it was asked for.
    static func runOptions(_ parsed: ParsedArguments, environment: [String: String]) throws(UsageError)
        -> SnapshotRun.Options
    {
        guard parsed.positionals.count == 1, let action = parsed.positionals.first else {
            throw UsageError("say 'test' (or its aliases 'record' and 'verify')")
        }
        let modes = SnapshotRecordMode.allCases.map(\.rawValue)
        var asked: SnapshotRecordMode?
        if parsed.value("record") != nil {
            asked = SnapshotRecordMode(rawValue: try parsed.choice("record", default: "", among: modes))
        }
        let prune = parsed.has("prune")
        switch action {
        case "test":
            if let asked { return .init(mode: asked, isRecordingAsked: true, prune: prune) }
            return .init(mode: try .fromEnvironment(environment), isRecordingAsked: false, prune: prune)
        case "record", "verify":
            guard asked == nil else { throw UsageError("'\(action)' sets the mode itself; use 'test --record MODE'") }
            return .init(mode: action == "record" ? .all : .never, isRecordingAsked: action == "record", prune: prune)
        default:
            throw UsageError("unknown action '\(action)': say 'test' (or its aliases 'record' and 'verify')")
        }
    }
}
