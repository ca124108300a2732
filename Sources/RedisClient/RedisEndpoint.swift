import ASCII

/// Where a Redis server is and how to log in to it, from `redis://[[USER]:PASSWORD@]HOST[:PORT][/DB]`
/// or `redis+unix:///PATH[?db=N]`.
///
/// The password is kept apart from everything that is ever shown: `description` is the URL
/// without it, for the access log, errors and `--help`.
public struct RedisEndpoint: Sendable, Equatable, CustomStringConvertible {
    public enum Address: Sendable, Equatable {
        case tcp(host: String, port: Int)
        case unixSocket(path: String)
    }

    public var address: Address
    /// The database number `SELECT`ed on every connection.
    public var database: Int
    /// The ACL user name; nil logs in as the default user.
    public var user: String?
    public var password: String?

    public static let defaultPort = 6379

    public init(address: Address, database: Int = 0, user: String? = nil, password: String? = nil) {
        self.address = address
        self.database = database
        self.user = user
        self.password = password
    }

    /// Whether `value` asks for Redis at all (then it must parse, or it is a usage error).
    public static func isRedisURL(_ value: String) -> Bool {
        value.hasPrefix("redis://") || value.hasPrefix("redis+unix://")
    }

    /// Parses a URL; a password in it wins over `fallbackPassword` (`TABSTAGE_REDIS_PASSWORD`).
    public static func parse(_ url: String, fallbackPassword: String? = nil) throws(RedisURLError) -> RedisEndpoint {
        func refuse(_ reason: String) -> RedisURLError { RedisURLError(shownURL: redacted(url), reason: reason) }
        var endpoint: RedisEndpoint
        if url.hasPrefix("redis+unix://") {
            let rest = url.dropFirst("redis+unix://".count)
            let (path, query) = split(rest, at: "?")
            guard path.hasPrefix("/"), path.count > 1 else {
                throw refuse("a socket path must be absolute: redis+unix:///run/redis/redis.sock")
            }
            endpoint = RedisEndpoint(address: .unixSocket(path: String(path)))
            if let query {
                for item in query.split(separator: "&") {
                    let (name, value) = split(item, at: "=")
                    guard name == "db", let value, let number = Int(value), (0...1_000_000).contains(number) else {
                        throw refuse("the only query item is db=N, a database number")
                    }
                    endpoint.database = number
                }
            }
        } else if url.hasPrefix("redis://") {
            let rest = url.dropFirst("redis://".count)
            let (authority, path) = split(rest, at: "/")
            var hostPort = authority
            if let at = authority.lastIndex(of: "@") {
                let userInfo = authority[..<at]
                hostPort = authority[authority.index(after: at)...]
                let (user, password) = split(userInfo, at: ":")
                guard let password, let decoded = PercentEscapes.decodedText(password) else {
                    throw refuse("credentials go as redis://:PASSWORD@HOST:PORT (percent-encoded)")
                }
                endpoint = RedisEndpoint(address: .tcp(host: "", port: defaultPort), password: decoded)
                if !user.isEmpty {
                    guard let decodedUser = PercentEscapes.decodedText(user) else {
                        throw refuse("the user name is not valid percent-encoding")
                    }
                    endpoint.user = decodedUser
                }
            } else {
                endpoint = RedisEndpoint(address: .tcp(host: "", port: defaultPort))
            }
            let (host, port) = try hostAndPort(hostPort, refuse: refuse)
            endpoint.address = .tcp(host: host, port: port)
            if let path, !path.isEmpty {
                guard let number = Int(path), (0...1_000_000).contains(number) else {
                    throw refuse("the path is a database number, as in redis://HOST:PORT/2")
                }
                endpoint.database = number
            }
        } else {
            throw refuse("expected redis://HOST:PORT[/DB] or redis+unix:///PATH[?db=N]")
        }
        if endpoint.password == nil, let fallbackPassword, !fallbackPassword.isEmpty {
            endpoint.password = fallbackPassword
        }
        return endpoint
    }

    private static func hostAndPort(_ text: Substring, refuse: (String) -> RedisURLError) throws(RedisURLError)
        -> (String, Int)
    {
        var host = text
        var portText: Substring?
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]") else { throw refuse("an IPv6 address needs its ']'") }
            host = text[text.index(after: text.startIndex)..<close]
            let after = text[text.index(after: close)...]
            if !after.isEmpty {
                guard after.hasPrefix(":") else { throw refuse("expected ':PORT' after ']'") }
                portText = after.dropFirst()
            }
        } else if let colon = text.lastIndex(of: ":") {
            host = text[..<colon]
            portText = text[text.index(after: colon)...]
        }
        guard !host.isEmpty, host.allSatisfy({ $0.isLetter || $0.isNumber || ".-_:".contains($0) }) else {
            throw refuse("a host name or address is needed, as in redis://127.0.0.1:6379")
        }
        var port = defaultPort
        if let portText {
            guard let number = Int(portText), (1...65535).contains(number) else {
                throw refuse("the port must be a number from 1 to 65535")
            }
            port = number
        }
        return (String(host), port)
    }

    private static func split(_ text: Substring, at separator: Character) -> (Substring, Substring?) {
        guard let index = text.firstIndex(of: separator) else { return (text, nil) }
        return (text[..<index], text[text.index(after: index)...])
    }

    /// `url` with anything between `//` and the last `@` of its authority left out, so that an
    /// error about a URL never repeats its password.
    public static func redacted(_ url: String) -> String {
        guard let schemeEnd = url.range(of: "://") else { return url }
        let rest = url[schemeEnd.upperBound...]
        let authorityEnd = rest.firstIndex(where: { $0 == "/" || $0 == "?" }) ?? rest.endIndex
        guard let at = rest[..<authorityEnd].lastIndex(of: "@") else { return url }
        return String(url[..<schemeEnd.upperBound]) + String(rest[rest.index(after: at)...])
    }

    /// The URL without credentials.
    public var description: String {
        switch address {
        case .tcp(let host, let port):
            let shownHost = host.contains(":") ? "[\(host)]" : host
            return "redis://\(shownHost):\(port)" + (database == 0 ? "" : "/\(database)")
        case .unixSocket(let path):
            return "redis+unix://\(path)" + (database == 0 ? "" : "?db=\(database)")
        }
    }
}

/// A Redis URL that does not parse; shows the URL without its password.
public struct RedisURLError: Error, Equatable, CustomStringConvertible {
    public let shownURL: String
    public let reason: String

    public var description: String { "'\(shownURL)' is not a Redis URL: \(reason)" }
}
