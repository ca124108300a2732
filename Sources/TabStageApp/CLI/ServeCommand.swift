import Foundation
import HTTPServer

/// `tabstage serve`: runs the HTTP server until SIGINT or SIGTERM.
enum ServeCommand: Subcommand {
    static let name = "serve"
    static let summary = "Serve the prototype over HTTP"
    static let usage = """
        Usage: tabstage serve [--host 127.0.0.1] [--port 8080] [--quiet] [--public DIR]

        Options:
          --host HOST   Address to listen on (default 127.0.0.1)
          --port PORT   Port to listen on, 0 picks a free one (default 8080)
          --quiet       Do not write an access-log line per request
          --public DIR  Folder served under /static/ (default: Public in the current directory)

        """
    static let options: [OptionSpec] = [OptionSpec("host"), OptionSpec("port"), .flag("quiet"), OptionSpec("public")]

    static func run(_ parsed: ParsedArguments, console: Console) -> Int32 {
        let port: Int
        do {
            port = try parsed.integer("port", default: 8080, in: 0...65535)
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
        let server = Server(configuration: configuration, router: Routes.makeRouter(staticFiles: staticFiles))
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
