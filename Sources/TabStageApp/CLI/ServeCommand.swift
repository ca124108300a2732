import Foundation
import HTTPServer
import Sessions
import TabModel

/// `tabstage serve`: runs the HTTP server until SIGINT or SIGTERM.
enum ServeCommand: Subcommand {
    static let name = "serve"
    static let summary = "Serve the prototype over HTTP"
    static let usage = """
        Usage: tabstage serve [--host 127.0.0.1] [--port 8080] [--quiet] [--public DIR]
                              [--app FILE]... [--watch]
                              [--sessions sqlite:PATH | memory] [--secure-cookies]
                              [--session-idle-timeout SECONDS] [--max-sessions N] [--deterministic]
                              [--max-connections-per-ip N] [--connection-timeout SECONDS]
                              [--max-streams N] [--max-streams-per-ip N]

        Options:
          --host HOST                       Address to listen on (default 127.0.0.1)
          --port PORT                       Port to listen on, 0 picks a free one (default 8080)
          --quiet                           Do not write an access-log line per request
          --public DIR                      Folder served under /static/ (default: Public here)
          --app FILE                        Also serve the app described in FILE (see tabstage check);
                                            it replaces a built-in demo with the same id; repeatable.
                                            SIGHUP reads every FILE again (see docs/live.md)
          --watch                           Read each --app FILE again whenever it changes on disk
          --sessions sqlite[:PATH] | memory Where sessions live (default sqlite:data/sessions.sqlite,
                                            the folder made if missing); memory is lost at exit
          --secure-cookies                  Mark the session cookie Secure (serve behind HTTPS)
          --session-idle-timeout SECONDS    Forget a session after this long unused (default 86400)
          --max-sessions N                  Keep at most N sessions, least recently used out first
                                            (default 100000)
          --deterministic                   Seeded session ids, in-memory sessions and a clock stopped
                                            at 2026-01-01T00:00:00Z: the same requests give the same bytes
          --max-connections-per-ip N        Connections one address may hold open (default 256)
          --connection-timeout SECONDS      Close a connection idle this long (default 10)
          --max-streams N                   Live pages (event streams) held open at once; past it
                                            a page is not live, and works as without JavaScript
                                            (default 4000)
          --max-streams-per-ip N            Live pages one address may hold open (default 64)

        """
    static let options: [OptionSpec] = [
        OptionSpec("host"), OptionSpec("port"), .flag("quiet"), OptionSpec("public"), OptionSpec("app"),
        OptionSpec("sessions"),
        .flag("secure-cookies"), OptionSpec("session-idle-timeout"), OptionSpec("max-sessions"),
        .flag("deterministic"), OptionSpec("max-connections-per-ip"), OptionSpec("connection-timeout"),
        .flag("watch"), OptionSpec("max-streams"), OptionSpec("max-streams-per-ip"),
    ]

    static let defaultLimits = SessionLimits()

    /// What `--sessions` and `--deterministic` ask for. Deterministic mode keeps sessions in
    /// memory: its stopped clock would make a durable file's expiry meaningless after a restart.
    static func sessionOption(_ parsed: ParsedArguments) throws(UsageError) -> SessionStoreOption {
        var option = SessionStoreOption.sqlite(path: SessionStoreOption.defaultSQLitePath)
        if let value = parsed.value("sessions") {
            do {
                option = try SessionStoreOption.parse(value)
            } catch {
                throw UsageError(error.description)
            }
        }
        guard parsed.has("deterministic") else { return option }
        if parsed.value("sessions") != nil && option != .memory {
            throw UsageError("--deterministic keeps sessions in memory; it cannot be combined with --sessions sqlite")
        }
        return .memory
    }

    static func limits(_ parsed: ParsedArguments) throws(UsageError) -> SessionLimits {
        SessionLimits(
            idleTimeout: Double(
                try parsed.integer(
                    "session-idle-timeout", default: Int(defaultLimits.idleTimeout), in: 1...(366 * 24 * 3600))),
            maxSessions: try parsed.integer("max-sessions", default: defaultLimits.maxSessions, in: 1...10_000_000))
    }

    /// The application the options ask for, serving `apps`: deterministic (its own in-memory
    /// sessions under `limits`), or live on `store` (opened by `openStore`, which can fail for
    /// reasons other than usage).
    static func application(
        _ parsed: ParsedArguments, shelf: AppShelf, store: any SessionStore<VisitorSession>,
        limits: SessionLimits
    ) -> StageApplication {
        parsed.has("deterministic")
            ? .deterministic(
                apps: shelf.current.apps, limits: limits, secureCookies: parsed.has("secure-cookies"), shelf: shelf)
            : .live(
                apps: shelf.current.apps, store: store, secureCookies: parsed.has("secure-cookies"), shelf: shelf)
    }

    /// Opens the store the options name; a database that cannot be used is reported, never replaced.
    /// `catalog` has the apps served: stored containers name their app by id, and are re-attached
    /// to the served description when read back (the current one, after a `--watch` reload).
    static func openStore(_ option: SessionStoreOption, limits: SessionLimits, catalog: AppCatalog)
        throws(SessionDatabaseError) -> (store: any SessionStore<VisitorSession>, close: () -> Void)
    {
        switch option {
        case .memory:
            return (MemorySessionStore<VisitorSession>(limits: limits), {})
        case .sqlite(let path):
            let store = try SQLiteSessionStore<VisitorSession>.open(
                path: path, limits: limits, decoderUserInfo: [.appCatalog: catalog])
            return (store, { try? store.close() })
        }
    }

    static func run(_ parsed: ParsedArguments, console: Console) -> Int32 {
        let port: Int
        let option: SessionStoreOption
        let limits: SessionLimits
        var configuration: ServerConfiguration
        do throws(UsageError) {
            port = try parsed.integer("port", default: 8080, in: 0...65535)
            option = try sessionOption(parsed)
            limits = try self.limits(parsed)
            configuration = ServerConfiguration(host: parsed.value("host") ?? "127.0.0.1", port: UInt16(port))
            configuration.perIPConnectionLimit = try parsed.integer(
                "max-connections-per-ip", default: configuration.perIPConnectionLimit,
                in: 1...configuration.connectionLimit)
            configuration.connectionTimeoutSeconds = try parsed.integer(
                "connection-timeout", default: configuration.connectionTimeoutSeconds, in: 1...3600)
            configuration.streamLimits.maxStreams = try parsed.integer(
                "max-streams", default: configuration.streamLimits.maxStreams, in: 0...100_000)
            configuration.streamLimits.maxStreamsPerAddress = try parsed.integer(
                "max-streams-per-ip", default: configuration.streamLimits.maxStreamsPerAddress, in: 0...100_000)
            // Streams hold connections: room for them beside the ordinary requests.
            configuration.connectionLimit += configuration.streamLimits.maxStreams
            if parsed.has("watch") && parsed.allValues["app"] == nil {
                throw UsageError("--watch watches the files of --app FILE; give at least one")
            }
        } catch {
            return TabStageCLI.usageError(error, for: self, console: console)
        }
        guard let loaded = AppFile.loaded(from: parsed.allValues["app"] ?? [], command: name, console: console)
        else {
            return ExitCode.failure
        }
        let shelf = AppShelf(loaded.apps)
        // The public folder before the session store: a wrong folder should not create or lock
        // the session database on its way to failing.
        let publicFolder = parsed.value("public") ?? "Public"
        let staticFiles: StaticFiles
        do {
            staticFiles = try StaticFiles(root: publicFolder)
        } catch {
            console.err("tabstage serve: \(error.description)\n")
            return ExitCode.failure
        }
        let opened: (store: any SessionStore<VisitorSession>, close: () -> Void)
        do {
            opened = try openStore(option, limits: limits, catalog: shelf.catalog)
        } catch {
            console.err("tabstage serve: \(error.description)\n")
            return ExitCode.failure
        }
        defer { opened.close() }
        let application = self.application(parsed, shelf: shelf, store: opened.store, limits: limits)
        let watcher = AppFileWatcher(
            files: loaded.files, application: application, report: { console.err($0) })
        if parsed.has("watch") { watcher.watch() }
        defer { watcher.stop() }
        raiseOpenFileLimit(toHold: configuration.connectionLimit)
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
        server.runUntilSignal(hangup: { watcher.reloadAll() }) {
            console.err("TabStage listening on http://\(shownHost):\(server.port)/\n")
        }
        return ExitCode.success
    }

    /// Every connection is a descriptor: the soft limit is raised (up to the hard one) so the
    /// connection limit, streams included, can be reached.
    private static func raiseOpenFileLimit(toHold connections: Int) {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return }
        let wanted = rlim_t(connections + 64)
        guard limit.rlim_cur < wanted else { return }
        limit.rlim_cur = min(wanted, limit.rlim_max)
        _ = setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
    }

    /// `TABSTAGE_THREADING=pool|pool-no-turbo|per-connection` exists only so that
    /// `bench/run.py --threading` can compare libmicrohttpd's threading modes; the default (pool
    /// with turbo) won that comparison.
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
