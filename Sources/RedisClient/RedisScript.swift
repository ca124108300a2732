/// A Lua script Redis runs as one step, nothing between its commands, and the type of its
/// calls, which names the script's keys and arguments.
public struct RedisScript<Call: RedisScriptCall>: Sendable {
    public let source: String
    /// Whether the script publishes: its message then leaves Redis before its answer does
    /// (`RedisConnection.evaluate`).
    public let publishes: Bool

    public init(_ source: String, publishes: Bool = false) {
        self.source = source
        self.publishes = publishes
    }
}

/// One run's keys and arguments by name: a struct per script, whose `keys` and `arguments` turn
/// its fields into the script's positional `KEYS` and `ARGV`, the one place that knows their order.
public protocol RedisScriptCall {
    var keys: [[UInt8]] { get }
    var arguments: [[UInt8]] { get }
}

/// A script Redis has loaded, called by its SHA-1 digest: one that Redis has forgotten (it
/// restarted) is sent by its text instead.
public struct LoadedRedisScript<Call: RedisScriptCall>: Sendable {
    public let script: RedisScript<Call>
    public let digest: [UInt8]
}

extension RedisConnection {
    /// Loads `script` (`SCRIPT LOAD`); a refusal is thrown.
    public func load<Call>(_ script: RedisScript<Call>) throws(RedisError) -> LoadedRedisScript<Call> {
        switch try run(.scriptLoad(script.source)) {
        case .bulk(let digest): return LoadedRedisScript(script: script, digest: digest)
        case .error(let message): throw .refused(message)
        case let other: throw .unexpectedReply("SCRIPT LOAD answered \(other)")
        }
    }

    /// Runs `script` with `call`: `EVALSHA`, or `EVAL` with the text when Redis has not got the
    /// script. An error the script raises is thrown, not returned.
    ///
    /// A script that publishes goes after a `PING`, in the same round trip. Redis writes the
    /// replies of one pass of its event loop to the connection it queued last first: the
    /// `PING`'s answer queues this connection before the script's `PUBLISH` queues the
    /// subscribers, so the message is on its way to them before this answer is. A subscriber
    /// that reads as soon as the writer has its answer then finds the message already sent.
    public func evaluate<Call>(_ script: LoadedRedisScript<Call>, _ call: Call) throws(RedisError) -> RedisReply {
        let (keys, arguments) = (call.keys, call.arguments)
        let reply = try send(.evalsha(script.digest, keys: keys, arguments: arguments), after: script.script)
        guard case .error(let message) = reply else { return reply }
        guard message.hasPrefix("NOSCRIPT") else { throw .refused(message) }
        let retried = try send(.eval(script.script.source, keys: keys, arguments: arguments), after: script.script)
        if case .error(let message) = retried { throw .refused(message) }
        return retried
    }

    /// `command`'s reply, the command sent after a `PING` when `script` publishes.
    private func send<Call>(_ command: RedisCommand, after script: RedisScript<Call>) throws(RedisError) -> RedisReply {
        guard script.publishes else { return try run(command) }
        return try pipeline([.ping, command])[1]
    }
}
