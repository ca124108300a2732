#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What the access log records about one answered request.
public struct AccessLogEntry: Sendable, Equatable {
    public var method: String
    public var target: String
    public var status: Int
    public var bodyBytes: Int
    public var durationMilliseconds: Double
    /// The client's address, only when the server trusts a proxy (see
    /// `ServerConfiguration.trustedProxies`): forwarded by the proxy, or the peer's own.
    public var client: String?

    public init(
        method: String, target: String, status: Int, bodyBytes: Int, durationMilliseconds: Double,
        client: String? = nil
    ) {
        self.method = method
        self.target = target
        self.status = status
        self.bodyBytes = bodyBytes
        self.durationMilliseconds = durationMilliseconds
        self.client = client
    }

    /// `GET /path?x=1 200 1234B 0.42ms`, after the client's address when there is one.
    public var line: String {
        let hundredths = Int((durationMilliseconds * 100).rounded())
        let fraction = hundredths % 100
        let duration = "\(hundredths / 100).\(fraction < 10 ? "0" : "")\(fraction)"
        let request = "\(method) \(target) \(status) \(bodyBytes)B \(duration)ms"
        return client.map { "\($0) \(request)" } ?? request
    }
}

/// Access loggers ready to pass to `Server.Configuration.accessLog`.
public enum AccessLog {
    /// One line per request on standard error, written with a single `write` so lines from
    /// several threads never interleave.
    public static let standardError: @Sendable (AccessLogEntry) -> Void = { entry in
        let bytes = Array((entry.line + "\n").utf8)
        _ = bytes.withUnsafeBytes { write(STDERR_FILENO, $0.baseAddress, $0.count) }
    }
}
