import Synchronization

/// Connections to one Redis server, reused across requests.
///
/// A request takes a connection for the length of one store operation and gives it back; at
/// most `idleLimit` wait in between (one per server thread is enough: a thread runs one request
/// at a time). There is no connection kept per visitor and none is held while a page renders.
/// A connection that failed is dropped, and one the server closed while it waited (Redis
/// restarted) is noticed before use, so service resumes by itself once Redis is back.
final class RedisConnectionPool: Sendable {
    let endpoint: RedisEndpoint
    let timeouts: RedisTimeouts
    let idleLimit: Int
    private let idle = Mutex<[RedisConnection]>([])

    init(endpoint: RedisEndpoint, timeouts: RedisTimeouts, idleLimit: Int) {
        self.endpoint = endpoint
        self.timeouts = timeouts
        self.idleLimit = max(1, idleLimit)
    }

    /// Runs `body` on a live connection, made if none waits.
    func withConnection<Result>(_ body: (RedisConnection) throws(RedisError) -> Result) throws(RedisError)
        -> Result
    {
        let connection = try take()
        let result: Result
        do {
            result = try body(connection)
        } catch {
            give(connection)
            throw error
        }
        give(connection)
        return result
    }

    private func take() throws(RedisError) -> RedisConnection {
        while let waiting = idle.withLock({ $0.popLast() }) {
            if !waiting.isClosedByPeer { return waiting }
        }
        return try RedisConnection(endpoint, timeouts: timeouts)
    }

    private func give(_ connection: RedisConnection) {
        guard !connection.isBroken else { return }
        idle.withLock { idle in
            if idle.count < idleLimit { idle.append(connection) }
        }
    }

    /// Closes the waiting connections (those in use close when given back after this).
    func drain() { idle.withLock { $0.removeAll() } }
}
