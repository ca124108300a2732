#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What the server remembers about one request between libmicrohttpd's calls of the access
/// handler. Only the connection's own thread touches it, one call at a time.
final class RequestContext {
    let target: String
    /// When the request started, in `monotonicNanoseconds`; nil when nobody asked for the
    /// duration (no access log).
    let startedAt: UInt64?
    var sawFirstCall = false
    var body: [UInt8] = []
    var bodyTooLarge = false

    init(target: String, startedAt: UInt64?) {
        self.target = target
        self.startedAt = startedAt
    }

    /// The monotonic clock in whole nanoseconds: a duration is one subtraction of integers
    /// (no `Duration`, whose arithmetic is 128-bit).
    static var monotonicNanoseconds: UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
    }
}
