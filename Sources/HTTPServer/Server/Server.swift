import CMicroHTTPD
import Dispatch
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// An HTTP/1.1 server over libmicrohttpd that answers every request through one synchronous
/// `respond` closure (usually `Router.respond(to:)`).
public final class Server: Sendable {
    /// The daemon pointer is only used under `state`'s lock or after being taken out of it.
    struct DaemonHandle: @unchecked Sendable {
        let pointer: OpaquePointer
    }

    struct State {
        var daemon: DaemonHandle?
        var port: UInt16 = 0
    }

    public let configuration: ServerConfiguration
    let respond: @Sendable (consuming Request) -> Response
    let state = Mutex(State())
    // Touched by every request: atomics, never the lock, which would serialise the threads.
    let requestsInFlight = Atomic<Int>(0)
    let stopping = Atomic<Bool>(false)
    let streams = Mutex(StreamBook())

    public init(configuration: ServerConfiguration, respond: @escaping @Sendable (consuming Request) -> Response) {
        self.configuration = configuration
        self.respond = respond
    }

    public convenience init(configuration: ServerConfiguration, router: Router) {
        self.init(configuration: configuration, respond: { router.respond(to: $0) })
    }

    deinit {
        stop()
    }

    /// The bound port (the chosen one when configured with port 0); 0 before `start()`.
    public var port: UInt16 { state.withLock { $0.port } }

    public var isRunning: Bool { state.withLock { $0.daemon != nil } }

    /// The connections open now; 0 when not running.
    public var openConnections: Int {
        state.withLock { state in state.daemon.map { Int(tabstage_daemon_open_connections($0.pointer)) } ?? 0 }
    }

    /// Binds and starts serving on libmicrohttpd's threads; returns at once.
    public func start() throws(ServerError) {
        let address = try ListenAddress(host: configuration.host, port: configuration.port)
        guard state.withLock({ $0.daemon == nil }) else { throw .alreadyStarted }
        stopping.store(false, ordering: .releasing)
        var flags = MHD_USE_ITC.rawValue  // quiescing (graceful stop) needs it
        var poolSize: UInt32 = 0
        switch configuration.threading {
        case .threadPool(let size):
            // Streams suspend their connection while they have nothing to send.
            flags |= MHD_USE_EPOLL_INTERNAL_THREAD.rawValue | MHD_ALLOW_SUSPEND_RESUME.rawValue
            poolSize = UInt32(clamping: max(1, size))
        case .threadPerConnection:
            flags |= MHD_USE_THREAD_PER_CONNECTION.rawValue | MHD_USE_POLL_INTERNAL_THREAD.rawValue
        }
        if configuration.turbo { flags |= MHD_USE_TURBO.rawValue }
        if address.isIPv6 { flags |= MHD_USE_IPv6.rawValue }
        let limits = tabstage_daemon_limits(
            thread_pool_size: poolSize,
            connection_limit: UInt32(clamping: configuration.connectionLimit),
            per_ip_connection_limit: UInt32(clamping: configuration.perIPConnectionLimit),
            connection_timeout_seconds: UInt32(clamping: configuration.connectionTimeoutSeconds),
            connection_memory_limit: configuration.connectionMemoryLimit,
            listen_backlog: UInt32(clamping: configuration.listenBacklog))
        let me = Unmanaged.passUnretained(self).toOpaque()
        let daemon = address.withSockaddr { sockaddr in
            tabstage_start_daemon(
                flags, sockaddr, limits, Server.accessHandler, me, Server.requestCompleted, me, Server.requestStarted,
                me)
        }
        guard let daemon else {
            let reason = errno == 0 ? "libmicrohttpd refused to start" : String(cString: strerror(errno))
            throw .cannotListen(host: configuration.host, port: configuration.port, reason: reason)
        }
        let boundPort = tabstage_daemon_bound_port(daemon)
        state.withLock {
            $0.daemon = DaemonHandle(pointer: daemon)
            $0.port = boundPort
        }
        startHeartbeat()
        startWatchingStreams()
    }

    /// Stops accepting connections, lets requests in flight finish (up to the grace period),
    /// then closes every connection and returns. Safe to call more than once.
    public func stop() {
        let daemon = state.withLock { state -> DaemonHandle? in
            stopping.store(true, ordering: .releasing)
            defer { state.daemon = nil }
            return state.daemon
        }
        guard let daemon else { return }
        let listenSocket = MHD_quiesce_daemon(daemon.pointer)
        if listenSocket >= 0 { close(listenSocket) }
        // Open streams would never finish on their own: end them, so they count as done.
        finishStreams()
        let deadline = ContinuousClock.now + .milliseconds(Int(configuration.shutdownGraceSeconds * 1000))
        while requestsInFlight.load(ordering: .acquiring) > 0 && ContinuousClock.now < deadline {
            usleep(5_000)
        }
        MHD_stop_daemon(daemon.pointer)
    }

    /// Serves until SIGINT or SIGTERM, then stops gracefully. For the command line. `ready` runs
    /// once the signals are caught, so a "listening" line printed there cannot race an early kill.
    /// SIGHUP runs `hangup` (on this thread, one at a time) and serves on.
    ///
    /// A plain handler writing to a pipe (the self-pipe trick), not a Dispatch signal source:
    /// on Linux a source is registered asynchronously after `resume()`, and a SIGTERM arriving in
    /// that window was either lost (the server then never stopped) or killed the process.
    public func runUntilSignal(hangup: () -> Void = {}, ready: () -> Void = {}) {
        let readEnd = signalPipe.read
        signal(SIGINT, noteSignal)
        signal(SIGTERM, noteSignal)
        signal(SIGHUP, noteSignal)
        // A parent may start us with these blocked (Foundation's Process passes its thread's
        // mask on): unblock them here so this thread takes them.
        var caught = sigset_t()
        sigemptyset(&caught)
        sigaddset(&caught, SIGINT)
        sigaddset(&caught, SIGTERM)
        sigaddset(&caught, SIGHUP)
        pthread_sigmask(SIG_UNBLOCK, &caught, nil)
        ready()
        while true {
            var byte: UInt8 = 0
            let count = read(readEnd, &byte, 1)
            if count < 0 && errno == EINTR { continue }
            guard count == 1, byte == UInt8(truncatingIfNeeded: SIGHUP) else { break }
            hangup()
        }
        stop()
    }
}

/// The pipe the signal handler writes to; made before any handler is installed.
private let signalPipe: (read: Int32, write: Int32) = {
    var ends: [Int32] = [-1, -1]
    guard pipe(&ends) == 0 else { return (-1, -1) }
    return (ends[0], ends[1])
}()

/// Async-signal-safe: one `write` of the signal's number to a pipe made before the handler was installed.
private func noteSignal(_ signal: Int32) {
    var byte = UInt8(truncatingIfNeeded: signal)
    _ = write(signalPipe.write, &byte, 1)
}
