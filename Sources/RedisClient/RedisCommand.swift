/// One command as Redis receives it: its name, then its arguments, every one binary-safe.
///
/// Made only by the named constructors below, so that a call site says which command it sends
/// and with what, and the protocol's spelling (names, flags, argument order) stays here.
public struct RedisCommand: Sendable, Equatable, CustomStringConvertible {
    /// The name, then the arguments, as they go on the wire.
    public let parts: [[UInt8]]

    private init(_ name: String, _ arguments: [[UInt8]] = []) {
        parts = [Array(name.utf8)] + arguments
    }

    /// The command's name alone: a description never shows a value (a session, a password).
    public var description: String { String(decoding: parts.first ?? [], as: UTF8.self) }
}

extension RedisCommand {
    public static func get(_ key: some Sequence<UInt8>) -> RedisCommand { RedisCommand("GET", [Array(key)]) }

    /// `SET`, with `PX` when `expiringAfterMilliseconds` is given.
    public static func set(
        _ key: some Sequence<UInt8>, _ value: some Sequence<UInt8>, expiringAfterMilliseconds: Int? = nil
    ) -> RedisCommand {
        let expiry = expiringAfterMilliseconds.map { [Array("PX".utf8), decimal($0)] } ?? []
        return RedisCommand("SET", [Array(key), Array(value)] + expiry)
    }

    /// The milliseconds `key` has left: -1 without an expiry, -2 without the key.
    public static func pttl(_ key: some Sequence<UInt8>) -> RedisCommand { RedisCommand("PTTL", [Array(key)]) }

    public static func pexpire(_ key: some Sequence<UInt8>, milliseconds: Int) -> RedisCommand {
        RedisCommand("PEXPIRE", [Array(key), decimal(milliseconds)])
    }

    public static func publish(_ channel: some Sequence<UInt8>, _ message: some Sequence<UInt8>) -> RedisCommand {
        RedisCommand("PUBLISH", [Array(channel), Array(message)])
    }

    public static func subscribe(_ channels: [[UInt8]]) -> RedisCommand { RedisCommand("SUBSCRIBE", channels) }

    /// Loads a Lua script; Redis answers with its SHA-1 digest, the name `evalsha` calls it by.
    public static func scriptLoad(_ source: String) -> RedisCommand {
        RedisCommand("SCRIPT", [Array("LOAD".utf8), Array(source.utf8)])
    }

    public static func evalsha(_ digest: [UInt8], keys: [[UInt8]], arguments: [[UInt8]]) -> RedisCommand {
        RedisCommand("EVALSHA", [digest, decimal(keys.count)] + keys + arguments)
    }

    public static func eval(_ source: String, keys: [[UInt8]], arguments: [[UInt8]]) -> RedisCommand {
        RedisCommand("EVAL", [Array(source.utf8), decimal(keys.count)] + keys + arguments)
    }

    public static let ping = RedisCommand("PING")
    /// The server's clock: seconds and microseconds since 1970, two bulk strings.
    public static let time = RedisCommand("TIME")
    /// The number of keys in the database, in constant time.
    public static let dbsize = RedisCommand("DBSIZE")
    /// Turns the connection into a stream of every command Redis runs (for tests that watch).
    public static let monitor = RedisCommand("MONITOR")

    /// Logs in as `user` (nil: the default user).
    static func auth(user: String?, password: String) -> RedisCommand {
        RedisCommand("AUTH", (user.map { [Array($0.utf8)] } ?? []) + [Array(password.utf8)])
    }

    static func select(_ database: Int) -> RedisCommand { RedisCommand("SELECT", [decimal(database)]) }

    private static func decimal(_ number: Int) -> [UInt8] { Array(String(number).utf8) }
}
