import Foundation
import HTTPServer
import Sessions

/// `tabstage serve`: runs the HTTP server until SIGINT or SIGTERM.
enum ServeCommand: Subcommand {
    static let name = "serve"
    static let summary = "Serve the prototype over HTTP"
    static let usage = """
        Usage: tabstage serve [--host 127.0.0.1] [--port 8080] [--quiet] [--public DIR]
                              [--session-idle-timeout SECONDS] [--max-sessions N] [--deterministic]

        Options:
          --host HOST                       Address to listen on (default 127.0.0.1)
          --port PORT                       Port to listen on, 0 picks a free one (default 8080)
          --quiet                           Do not write an access-log line per request
          --public DIR                      Folder served under /static/ (default: Public here)
          --session-idle-timeout SECONDS    Forget a session after this long unused (default 86400)
          --max-sessions N                  Keep at most N sessions, least recently used out first
                                            (default 100000)
          --deterministic                   Seeded session ids and a clock stopped at
                                            2026-01-01T00:00:00Z: the same requests give the same bytes

        """
    static let options: [OptionSpec] = [
        OptionSpec("host"), OptionSpec("port"), .flag("quiet"), OptionSpec("public"),
        OptionSpec("session-idle-timeout"), OptionSpec("max-sessions"), .flag("deterministic"),
    ]

    static let defaultLimits = SessionLimits()

    /// The session limits and the kind of application the options ask for.
    static func application(_ parsed: ParsedArguments) throws(UsageError) -> StageApplication {
        let limits = SessionLimits(
            idleTimeout: Double(
                try parsed.integer(
                    "session-idle-timeout", default: Int(defaultLimits.idleTimeout), in: 1...(366 * 24 * 3600))),
            maxSessions: try parsed.integer("max-sessions", default: defaultLimits.maxSessions, in: 1...10_000_000))
        return parsed.has("deterministic") ? .deterministic(limits: limits) : .live(limits: limits)
    }

    static func run(_ parsed: ParsedArguments, console: Console) -> Int32 {
        let port: Int
        let application: StageApplication
        do {
            port = try parsed.integer("port", default: 8080, in: 0...65535)
            application = try self.application(parsed)
        } catch {
            return TabStageCLI.usageError(error, for: self, console: console)
        }
        let publicFolder = parsed.value("public") ?? "Public"
        let staticFiles: StaticFiles
        do {
            staticFiles = try StaticFiles(root: publicFolder)
        } catch {
            console.err("tabstage serve: \(error.description)\n")
            return ExitCode.failure
        }
        var configuration = ServerConfiguration(host: parsed.value("host") ?? "127.0.0.1", port: UInt16(port))
        configuration.accessLog = parsed.has("quiet") ? nil : AccessLog.standardError
        applyThreadingOverride(to: &configuration)
        let server = Server(
            configuration: configuration, router: Routes.makeRouter(staticFiles: staticFiles, application: application))
        do {
            try server.start()
        } catch {
            console.err("tabstage serve: \(error.description)\n")
            return ExitCode.failure
        }
        let shownHost = configuration.host.contains(":") ? "[\(configuration.host)]" : configuration.host
        server.runUntilSignal {
            console.err("TabStage listening on http://\(shownHost):\(server.port)/\n")
        }
        return ExitCode.success
    }

    /// `TABSTAGE_THREADING=pool|pool-no-turbo|per-connection` exists only so `bench/http.sh` can
    /// compare libmicrohttpd's threading modes; the default (pool with turbo) won that comparison.
    private static func applyThreadingOverride(to configuration: inout ServerConfiguration) {
        switch ProcessInfo.processInfo.environment["TABSTAGE_THREADING"] {
        case "pool-no-turbo":
            configuration.turbo = false
        case "per-connection":
            configuration.threading = .threadPerConnection
            configuration.turbo = false
        default:
            break
        }
    }
}
