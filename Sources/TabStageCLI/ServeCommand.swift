import Foundation
import HTTPServer
import QRCode
import RedisClient
import Sessions
import Snapshots
import TabModel
import TabStageApp

/// `tabstage serve`: runs the HTTP server until SIGINT or SIGTERM.
enum ServeCommand: Subcommand {
    static let name = "serve"
    static let summary = "Serve the prototype over HTTP"
    static let usage = """
        Usage: tabstage serve [--host 127.0.0.1] [--port 8080] [--quiet] [--public DIR]
                              [--app FILE]... [--watch] [--no-demos]
                              [--sessions sqlite:PATH | memory | redis://HOST:PORT[/DB]]
                              [--redis-prefix PREFIX] [--redis-cache N] [--secure-cookies]
                              [--session-idle-timeout SECONDS] [--max-sessions N] [--deterministic]
                              [--max-connections-per-ip N] [--connection-timeout SECONDS]
                              [--trust-proxy ADDRESSES] [--metrics-from ADDRESSES]
                              [--max-streams N] [--max-streams-per-ip N] [--public-url URL]

        Options:
          --host HOST                       Address to listen on (default 127.0.0.1)
          --port PORT                       Port to listen on, 0 picks a free one (default 8080)
          --quiet                           Do not write an access-log line per request
          --public DIR                      Folder served under /static/ instead of the built-in files
          --app FILE                        Also serve the app described in FILE (see tabstage check);
                                            it replaces a built-in demo with the same id; repeatable.
                                            SIGHUP reads every FILE again (see docs/live.md)
          --watch                           Read each --app FILE again whenever it changes on disk
          --no-demos                        Serve the apps of --app FILE alone, not the built-in demos
          --sessions sqlite[:PATH] | memory Where sessions live (default sqlite:data/sessions.sqlite,
                                            the folder made if missing); memory is lost at exit
          --sessions redis://HOST:PORT[/DB] Sessions in Redis, shared by several instances (also
                                            redis+unix:///PATH[?db=N]; a password as redis://:PW@HOST
                                            or in TABSTAGE_REDIS_PASSWORD); see docs/several-instances.md
          --redis-prefix PREFIX             Put before every Redis key and channel (default tabstage:)
          --redis-cache N                   Sessions each instance keeps decoded while Redis announces
                                            their changes (default 1024; 0: every read asks Redis)
          --secure-cookies                  Mark the session cookie Secure (serve behind HTTPS)
          --session-idle-timeout SECONDS    Forget a session after this long unused (default 86400)
          --max-sessions N                  Keep at most N sessions, least recently used out first
                                            (default 100000; with Redis, its maxmemory policy does)
          --deterministic                   Seeded session ids, in-memory sessions and a clock stopped
                                            at 2026-01-01T00:00:00Z: the same requests give the same bytes
          --max-connections-per-ip N        Connections one address may hold open (default 256)
          --connection-timeout SECONDS      Close a connection idle this long (default 10)
          --max-streams N                   Live pages (event streams) held open at once; past it
                                            a page is not live, and works as without JavaScript
                                            (default 4000)
          --max-streams-per-ip N            Live pages one address may hold open (default 64)
          --public-url URL                  The address people reach this server at (http[s]://HOST
                                            [:PORT][/PREFIX]): follow links and their QR codes start
                                            with it (default: the host each request names)
          --trust-proxy ADDRESSES           Proxies (comma-separated addresses or blocks) whose
                                            X-Forwarded-For names the client in the access log
          --metrics-from ADDRESSES          Who may GET /metrics (default 127.0.0.0/8,::1)

        """
    static let options: [OptionSpec] = [
        OptionSpec("host"), OptionSpec("port"), .flag("quiet"), OptionSpec("public"), OptionSpec("app"),
        OptionSpec("sessions"),
        .flag("secure-cookies"), OptionSpec("session-idle-timeout"), OptionSpec("max-sessions"),
        .flag("deterministic"), OptionSpec("max-connections-per-ip"), OptionSpec("connection-timeout"),
        .flag("watch"), .flag("no-demos"), OptionSpec("max-streams"), OptionSpec("max-streams-per-ip"),
        OptionSpec("redis-prefix"), OptionSpec("redis-cache"), OptionSpec("trust-proxy"), OptionSpec("metrics-from"),
        OptionSpec("public-url"),
    ]

    static let defaultLimits = SessionLimits()

    /// Applies option `--name`, when given, to the Redis settings in `option`; for any other
    /// store it is a usage error.
    private static func applyRedisOption(
        _ name: String, of parsed: ParsedArguments, to option: inout SessionStoreOption,
        _ apply: (String, inout RedisSettings) throws(UsageError) -> Void
    ) throws(UsageError) {
        guard let value = parsed.value(name) else { return }
        guard case .redis(var settings) = option else {
            throw UsageError("--\(name) only applies to --sessions redis://...")
        }
        try apply(value, &settings)
        option = .redis(settings)
    }

    /// What `--sessions` and `--deterministic` ask for. Deterministic mode keeps sessions in
    /// memory: its stopped clock would make a durable file's expiry meaningless after a restart.
    /// A Redis password comes from the URL or from `TABSTAGE_REDIS_PASSWORD` (`environment`).
    static func sessionOption(
        _ parsed: ParsedArguments, environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws(UsageError) -> SessionStoreOption {
        var option = SessionStoreOption.sqlite(path: SessionStoreOption.defaultSQLitePath)
        if let value = parsed.value("sessions") {
            do {
                option = try SessionStoreOption.parse(value, redisPassword: environment["TABSTAGE_REDIS_PASSWORD"])
            } catch {
                throw UsageError(error.description)
            }
        }
        try applyRedisOption("redis-prefix", of: parsed, to: &option) { (prefix, settings) throws(UsageError) in
            guard !prefix.isEmpty, !prefix.contains(where: { $0.isWhitespace }) else {
                throw UsageError("--redis-prefix must be non-empty and without spaces, not '\(prefix)'")
            }
            settings.keyPrefix = prefix
        }
        try applyRedisOption("redis-cache", of: parsed, to: &option) { (value, settings) throws(UsageError) in
            guard let count = Int(value), count >= 0 else {
                throw UsageError("--redis-cache must be a number of sessions, 0 or more, not '\(value)'")
            }
            settings.cachedSessions = count
        }
        guard parsed.has("deterministic") else { return option }
        if parsed.value("sessions") != nil && option != .memory {
            throw UsageError(
                "--deterministic keeps sessions in memory; it cannot be combined with --sessions sqlite or redis")
        }
        return .memory
    }

    /// `--trust-proxy` and `--metrics-from`: comma-separated addresses or blocks.
    static func addresses(_ parsed: ParsedArguments, _ name: String, default fallback: [AddressRange])
        throws(UsageError) -> [AddressRange]
    {
        guard let value = parsed.value(name) else { return fallback }
        guard let ranges = AddressRange.list(value) else {
            throw UsageError(
                "--\(name) expects comma-separated IP addresses or blocks (127.0.0.1, 10.0.0.0/8, ::1), not '\(value)'")
        }
        return ranges
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
        limits: SessionLimits, hub: any ChangeHub = LocalChangeHub()
    ) -> StageApplication {
        // `AppFile.apps(adding:)` puts the app of `--app FILE` first. Pages name the file, never
        // its folder: the room sees the start page (full paths are for the server's log).
        let appFiles = parsed.value("app").map { [shelf.current.apps[0].id: AppFile.shownName($0)] } ?? [:]
        let secureCookies = parsed.has("secure-cookies")
        // Checked by `settings`: a value here is a valid one.
        let publicURL = parsed.value("public-url").flatMap(FollowLinks.publicURL)
        return parsed.has("deterministic")
            ? .deterministic(
                apps: shelf.current.apps, limits: limits, secureCookies: secureCookies, hub: hub, shelf: shelf,
                appFiles: appFiles, publicURL: publicURL)
            : .live(
                apps: shelf.current.apps, store: store, secureCookies: secureCookies, hub: hub, shelf: shelf,
                appFiles: appFiles, publicURL: publicURL)
    }

    /// Opens the store the options name; a database that cannot be used is reported, never replaced.
    /// `catalog` has the apps served: stored containers name their app by id, and are re-attached
    /// to the served description when read back (the current one, after a `--watch` reload).
    static func openStore(_ option: SessionStoreOption, limits: SessionLimits, catalog: AppCatalog)
        throws(StoreOpeningError) -> OpenedStore
    {
        switch option {
        case .memory:
            return OpenedStore(
                store: MemorySessionStore<VisitorSession>(limits: limits), hub: LocalChangeHub(), close: {})
        case .sqlite(let path):
            do {
                let store = try SQLiteSessionStore<VisitorSession>.open(
                    path: path, limits: limits, decoderUserInfo: [.appCatalog: catalog])
                return OpenedStore(store: store, hub: LocalChangeHub(), close: { try? store.close() })
            } catch {
                throw StoreOpeningError(description: error.description)
            }
        case .redis(let settings):
            // One client for the process: the store and the hub share its connections and its one
            // subscription. One idle connection per server thread, and one for the rare overlap.
            let client = RedisClient(
                endpoint: settings.endpoint, timeouts: settings.timeouts, idleConnections: redisThreads + 1,
                log: StageApplication.standardErrorLog)
            do {
                let store = try RedisSessionStore<VisitorSession>.open(
                    client: client, keyPrefix: settings.keyPrefix, limits: limits,
                    cachedSessions: settings.cachedSessions, decoderUserInfo: [.appCatalog: catalog],
                    log: StageApplication.standardErrorLog)
                let hub = RedisChangeHub(client: client, keyPrefix: settings.keyPrefix)
                return OpenedStore(store: store, hub: hub) {
                    hub.close()
                    store.close()
                    client.close()
                }
            } catch {
                client.close()
                throw StoreOpeningError(description: error.description)
            }
        }
    }

    /// Server threads with the Redis store: a thread waits out each Redis round trip, so more
    /// threads than cores keep the cores busy meanwhile (a thread holds one connection at a time).
    static var redisThreads: Int { 4 * ServerConfiguration.activeCores }

    /// An opened session store, the hub that carries its change notices (over Redis for a Redis
    /// store, within the process otherwise), and what closes them when serving ends.
    struct OpenedStore {
        let store: any SessionStore<VisitorSession>
        let hub: any ChangeHub
        let close: () -> Void
    }

    /// A store that cannot be used, found at start-up: the message says where and what to do.
    struct StoreOpeningError: Error, CustomStringConvertible {
        let description: String
    }

    /// What the options say, read and checked before anything is opened.
    struct Settings {
        var option: SessionStoreOption
        var limits: SessionLimits
        var configuration: ServerConfiguration
        var metricsFrom: [AddressRange]
    }

    static func settings(_ parsed: ParsedArguments) throws(UsageError) -> Settings {
        let port = try parsed.integer("port", default: 8080, in: 0...65535)
        let option = try sessionOption(parsed)
        let metricsFrom = try addresses(parsed, "metrics-from", default: AddressRange.loopback)
        let limits = try self.limits(parsed)
        var configuration = ServerConfiguration(host: parsed.value("host") ?? "127.0.0.1", port: UInt16(port))
        if case .redis = option { configuration.threading = .threadPool(size: Self.redisThreads) }
        configuration.streamLimits.maxStreams = try parsed.integer(
            "max-streams", default: configuration.streamLimits.maxStreams, in: 0...100_000)
        configuration.streamLimits.maxStreamsPerAddress = try parsed.integer(
            "max-streams-per-ip", default: configuration.streamLimits.maxStreamsPerAddress, in: 0...100_000)
        configuration.connectionLimit += streamRoom(configuration)
        configuration.perIPConnectionLimit = try parsed.integer(
            "max-connections-per-ip", default: configuration.perIPConnectionLimit,
            in: 1...configuration.connectionLimit)
        configuration.connectionTimeoutSeconds = try parsed.integer(
            "connection-timeout", default: configuration.connectionTimeoutSeconds, in: 1...3600)
        configuration.trustedProxies = try addresses(parsed, "trust-proxy", default: [])
        if let url = parsed.value("public-url"), FollowLinks.publicURL(url) == nil {
            throw UsageError(
                "--public-url expects an http:// or https:// address without ?query or #fragment, not '\(url)'")
        }
        if parsed.has("watch") && parsed.allValues["app"] == nil {
            throw UsageError("--watch watches the files of --app FILE; give at least one")
        }
        if parsed.has("no-demos") && parsed.allValues["app"] == nil {
            throw UsageError("--no-demos leaves nothing to serve without --app FILE")
        }
        return Settings(option: option, limits: limits, configuration: configuration, metricsFrom: metricsFrom)
    }

    /// The connections added to the limit for the streams. Streams hold connections, and
    /// libmicrohttpd splits its connection limit evenly among its threads while a stream stays
    /// on whichever thread accepted it: each thread gets room for every stream, so that a thread
    /// holding many streams still takes its share of the other requests. (With room for them
    /// once, 10,000 streams filled one of two threads, and every page went to the other.)
    static func streamRoom(_ configuration: ServerConfiguration) -> Int {
        guard case .threadPool(let size) = configuration.threading else { return 0 }
        return configuration.streamLimits.maxStreams * max(1, size)
    }

    /// `--public FOLDER`'s files, else those built into the binary (it then serves from any folder).
    static func staticFiles(_ parsed: ParsedArguments) throws(StaticFilesError) -> StaticFiles {
        guard let publicFolder = parsed.value("public") else { return StaticFiles(embedded: StaticFiles.embeddedFiles) }
        return try StaticFiles(root: publicFolder)
    }

    static func run(_ parsed: ParsedArguments, console: Console) -> Int32 {
        let settings: Settings
        do throws(UsageError) {
            settings = try self.settings(parsed)
        } catch {
            return TabStageCLI.usageError(error, for: self, console: console)
        }
        let option = settings.option
        var configuration = settings.configuration
        guard
            let loaded = AppFile.loaded(
                from: parsed.allValues["app"] ?? [], withDemos: !parsed.has("no-demos"), command: name,
                console: console)
        else {
            return ExitCode.failure
        }
        let shelf = AppShelf(loaded.apps)
        // The public folder before the session store: a wrong folder should not create or lock
        // the session database on its way to failing.
        let staticFiles: StaticFiles
        let opened: OpenedStore
        do {
            staticFiles = try self.staticFiles(parsed)
            opened = try openStore(option, limits: settings.limits, catalog: shelf.catalog)
        } catch {
            console.err("tabstage serve: \(error)\n")
            return ExitCode.failure
        }
        defer { opened.close() }
        let metrics = ServerMetrics()
        let store = metrics.measuring(opened.store)
        let application = self.application(
            parsed, shelf: shelf, store: store, limits: settings.limits, hub: opened.hub)
        let watcher = AppFileWatcher(
            files: loaded.files, application: application, report: { console.err($0) })
        if parsed.has("watch") { watcher.watch() }
        defer { watcher.stop() }
        raiseOpenFileLimit(toHold: configuration.connectionLimit)
        let log = parsed.has("quiet") ? nil : AccessLog.standardError
        configuration.accessLog = { entry in
            metrics.record(entry)
            log?(entry)
        }
        applyThreadingOverride(to: &configuration)
        let router = Routes.makeRouter(
            staticFiles: staticFiles, application: application,
            metrics: MetricsAccess(metrics: metrics, allowed: settings.metricsFrom))
        let server = Server(configuration: configuration, router: router)
        metrics.readOpenConnections { [weak server] in server?.openConnections ?? 0 }
        metrics.readOpenStreams { [weak server] in server?.openStreamCount ?? 0 }
        metrics.readLiveSessions { store.count }
        do {
            try server.start()
        } catch {
            console.err("tabstage serve: \(error.description)\n")
            return ExitCode.failure
        }
        let shownHost = configuration.host.contains(":") ? "[\(configuration.host)]" : configuration.host
        server.runUntilSignal(hangup: { watcher.reloadAll() }) {
            console.err("TabStage listening on http://\(shownHost):\(server.port)/\n")
            // 0.0.0.0 and :: are no address to type: the machine's own, and the public one.
            for address in ReachableAddresses.forWildcard(configuration.host) {
                console.err("  reachable at http://\(address):\(server.port)/\n")
            }
            if let publicURL = parsed.value("public-url").flatMap(FollowLinks.publicURL) {
                console.err("  follow links start with \(publicURL)/\n")
            }
            if let problem = QRCodeLibrary.shared.problem { console.err("  \(problem)\n") }
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
