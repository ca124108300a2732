/// What the server remembers about one request between libmicrohttpd's calls of the access
/// handler. Only the connection's own thread touches it, one call at a time.
final class RequestContext {
    let target: String
    /// Nil when nobody asked for the duration (no access log).
    let startedAt: ContinuousClock.Instant?
    var sawFirstCall = false
    var body: [UInt8] = []
    var bodyTooLarge = false

    init(target: String, startedAt: ContinuousClock.Instant?) {
        self.target = target
        self.startedAt = startedAt
    }
}
