/// One process's way to one Redis server: a pool of connections for commands, and the one
/// connection that listens to pub/sub channels for every listener in the process
/// (`subscription`). Made once and handed to everything that uses that Redis (the session
/// store, the change hub), which then share both.
///
/// Nothing connects at once: a command makes a connection when none waits in the pool, and
/// the subscription connects when its first listener comes.
public final class RedisClient: Sendable {
    public let endpoint: RedisEndpoint
    public let timeouts: RedisTimeouts
    public let subscription: RedisSubscription
    private let pool: RedisConnectionPool

    /// `idleConnections` bounds the connections waiting in the pool between commands (one per
    /// thread that sends commands is enough); `log` gets a line per outage of the subscription.
    public init(
        endpoint: RedisEndpoint, timeouts: RedisTimeouts = RedisTimeouts(), idleConnections: Int = 8,
        log: @escaping @Sendable (String) -> Void = { _ in }
    ) {
        self.endpoint = endpoint
        self.timeouts = timeouts
        pool = RedisConnectionPool(endpoint: endpoint, timeouts: timeouts, idleLimit: idleConnections)
        subscription = RedisSubscription(endpoint: endpoint, timeouts: timeouts, log: log)
    }

    deinit { close() }

    /// Sends `command` on a pooled connection and reads its reply. An error reply is returned,
    /// not thrown.
    public func run(_ command: RedisCommand) throws(RedisError) -> RedisReply {
        try pool.withConnection { (connection) throws(RedisError) in try connection.run(command) }
    }

    /// Sends every command before reading any reply: one round trip for all of them.
    public func pipeline(_ commands: [RedisCommand]) throws(RedisError) -> [RedisReply] {
        try pool.withConnection { (connection) throws(RedisError) in try connection.pipeline(commands) }
    }

    /// Runs `body` on one pooled connection: several steps on one connection, or a command
    /// made only once a connection is at hand (one that carries a deadline).
    public func withConnection<Result>(_ body: (RedisConnection) throws(RedisError) -> Result) throws(RedisError)
        -> Result
    {
        try pool.withConnection(body)
    }

    /// Stops the subscription (waiting for its thread) and closes the connections waiting in
    /// the pool.
    public func close() {
        subscription.stop()
        pool.drain()
    }
}
