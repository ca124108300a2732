import RedisClient

/// Where sessions live, as chosen with `--sessions memory`, `--sessions sqlite:PATH` or
/// `--sessions redis://HOST:PORT[/DB]`.
public enum SessionStoreOption: Sendable, Equatable {
    /// Lost when the server stops; for tests and deterministic snapshots.
    case memory
    /// Kept in the SQLite file at the path, across restarts.
    case sqlite(path: String)
    /// Kept in Redis, shared by every instance that names the same server and prefix.
    case redis(RedisSettings)

    /// Relative to the working directory; `data/` is ignored by git.
    public static let defaultSQLitePath = "data/sessions.sqlite"

    /// Parses the option's value: `memory`, `sqlite:PATH`, `sqlite` alone for the default path,
    /// or a Redis URL (`redisPassword` is used when the URL has none).
    public static func parse(_ value: String, redisPassword: String? = nil) throws(SessionStoreOptionError)
        -> SessionStoreOption
    {
        if value == "memory" { return .memory }
        if value == "sqlite" { return .sqlite(path: defaultSQLitePath) }
        if RedisEndpoint.isRedisURL(value) {
            do {
                return .redis(RedisSettings(endpoint: try RedisEndpoint.parse(value, fallbackPassword: redisPassword)))
            } catch {
                throw SessionStoreOptionError(value: RedisEndpoint.redacted(value), redisProblem: error.reason)
            }
        }
        let prefix = "sqlite:"
        guard value.hasPrefix(prefix) else { throw SessionStoreOptionError(value: RedisEndpoint.redacted(value)) }
        let path = String(value.dropFirst(prefix.count))
        guard !path.isEmpty else { throw SessionStoreOptionError(value: value) }
        return .sqlite(path: path)
    }

}

/// A Redis store's server, key prefix and timeouts.
public struct RedisSettings: Sendable, Equatable {
    public var endpoint: RedisEndpoint
    /// Put before every key and the change channel: several deployments can share one Redis.
    public var keyPrefix: String
    /// Decoded sessions each instance keeps while Redis announces their changes (0: none, every
    /// read asks Redis); see `RedisSessionCache`.
    public var cachedSessions = RedisSettings.defaultCachedSessions
    public var timeouts: RedisTimeouts

    public static let defaultKeyPrefix = "tabstage:"
    public static let defaultCachedSessions = 1024

    public init(
        endpoint: RedisEndpoint, keyPrefix: String = RedisSettings.defaultKeyPrefix,
        timeouts: RedisTimeouts = RedisTimeouts()
    ) {
        self.endpoint = endpoint
        self.keyPrefix = keyPrefix
        self.timeouts = timeouts
    }
}

/// A `--sessions` value that is not one of the forms, or a Redis URL that does not parse. The
/// value is shown without a password.
public struct SessionStoreOptionError: Error, Equatable, CustomStringConvertible {
    public let value: String
    /// What is wrong with a Redis URL; nil when the value is no form at all.
    public let redisProblem: String?

    public init(value: String, redisProblem: String? = nil) {
        self.value = value
        self.redisProblem = redisProblem
    }

    public var description: String {
        if let redisProblem {
            return "--sessions '\(value)' is not a Redis URL TabStage understands: \(redisProblem) "
                + "(expected redis://[:PASSWORD@]HOST[:PORT][/DB] or redis+unix:///PATH[?db=N])"
        }
        return "--sessions expects 'memory', 'sqlite', 'sqlite:PATH' (default path "
            + "\(SessionStoreOption.defaultSQLitePath)) or 'redis://HOST:PORT[/DB]', not '\(value)'"
    }
}
