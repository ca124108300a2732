#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// How libmicrohttpd runs handlers. The default is epoll with one thread per core, which
/// costs the least CPU per request; `bench/run.py --only http --threading MODE` compares the
/// modes (figures in PERFORMANCE.md).
public enum ThreadingModel: Sendable, Equatable {
    /// epoll with a fixed pool of threads, each serving many connections (the measured best).
    case threadPool(size: Int)
    /// One thread per connection, polled with poll().
    case threadPerConnection
}

/// Everything the server needs to start; every limit is explicit because libmicrohttpd's
/// defaults are unsafe (no timeout, no per-IP limit).
public struct ServerConfiguration: Sendable {
    /// A numeric IPv4 or IPv6 address, or `localhost`.
    public var host: String = "127.0.0.1"
    /// 0 lets the system pick a free port; `Server.port` reports it.
    public var port: UInt16 = 8080
    public var threading: ThreadingModel = .threadPool(size: ServerConfiguration.activeCores)
    /// Skips some bookkeeping per connection in libmicrohttpd; it matters only where connections
    /// open and close, not on keep-alive requests.
    public var turbo: Bool = true
    public var connectionLimit: Int = 1000
    /// Bounds what one client (or one slowloris) can hold open; wrk's 64 connections fit.
    public var perIPConnectionLimit: Int = 256
    /// Inactivity timeout: an idle keep-alive or stalled connection is closed after this long.
    public var connectionTimeoutSeconds: Int = 10
    /// Per-connection buffer for the request line and headers: larger URIs get 414, larger headers 431.
    ///
    /// 16 KB: a URI or a header field of 8 KB (nginx's default header buffers) still fits, with
    /// room for the response headers; a Cookie field of about 7.5 KB (libmicrohttpd copies it
    /// into the pool to parse it). No larger: libmicrohttpd zeroes the whole pool after every
    /// request (docs/libmicrohttpd.md), so its size is paid on each one.
    public var connectionMemoryLimit: Int = 16 * 1024
    /// Bodies larger than this get 413.
    public var maxBodyBytes: Int = 1024 * 1024
    /// How long `stop()` waits for requests in flight before closing everything.
    public var shutdownGraceSeconds: Double = 10
    public var listenBacklog: Int = 511
    /// Called once per answered request; nil logs nothing.
    public var accessLog: (@Sendable (AccessLogEntry) -> Void)? = AccessLog.standardError
    /// Proxies whose `X-Forwarded-For` names the client (`serve --trust-proxy`). When set, each
    /// access-log entry carries the client address; when empty, entries carry none and the
    /// header is never read.
    public var trustedProxies: [AddressRange] = []

    public init() {}

    public init(host: String, port: UInt16) {
        self.host = host
        self.port = port
    }

    public static var activeCores: Int { max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN)))) }
}
