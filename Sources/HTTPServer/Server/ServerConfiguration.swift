#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// How libmicrohttpd runs handlers.
///
/// Settled with bench/http.sh, since folded into `bench/run.py --only http --threading MODE`
/// (2 cores shared with wrk, keep-alive, median server CPU per request over two interleaved
/// rounds at c64/c16, static and dynamic), after the request-path work:
/// - epoll + pool of one thread per core: 5.3–9.0 µs/request, the lowest in every round.
/// - the same without `MHD_USE_TURBO`: within ±7% of it, either way (noise on a shared box);
///   strace shows identical system calls per keep-alive request (1 recvfrom, 1 sendmsg,
///   0.67 epoll_wait), so turbo only matters when connections open and close. Kept on.
/// - thread per connection: 7.9–10.5 µs/request (+25–50%): a poll() per request and a thread
///   switch per connection instead of one epoll_wait for several requests.
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
    /// Skips some bookkeeping per connection in libmicrohttpd (neutral on keep-alive requests; see
    /// `ThreadingModel`).
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
    /// into the pool to parse it). libmicrohttpd 0.9.75 zeroes the whole pool after every
    /// request and half of it when it shrinks the read buffer: at 32 KB that was ~49k of ~153k
    /// instructions per dynamic page (callgrind), halved here.
    public var connectionMemoryLimit: Int = 16 * 1024
    /// Bodies larger than this get 413.
    public var maxBodyBytes: Int = 1024 * 1024
    /// How long `stop()` waits for requests in flight before closing everything.
    public var shutdownGraceSeconds: Double = 10
    public var listenBacklog: Int = 511
    /// Open response streams (see `ResponseStream`): how many, and their heartbeat.
    public var streamLimits = StreamLimits()
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
