/// How long an idle session lives and how many live at once.
public struct SessionLimits: Sendable, Equatable {
    /// Seconds without a request after which a session is gone.
    public var idleTimeout: Double
    /// The most sessions kept; past it the least recently used one goes first.
    public var maxSessions: Int

    public init(idleTimeout: Double = 24 * 60 * 60, maxSessions: Int = 100_000) {
        self.idleTimeout = idleTimeout
        self.maxSessions = max(1, maxSessions)
    }
}
