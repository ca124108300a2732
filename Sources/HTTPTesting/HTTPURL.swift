/// A plain `http://HOST[:PORT][/PATH]` URL, as `tabstage healthcheck` and `tabstage snapshot
/// test --url` take one: HOST a name, an IPv4 address, or an IPv6 one in brackets; PORT 80 when
/// left out. The client speaks plain HTTP only, so an `https://` URL is refused with the reason.
public struct HTTPURL: Sendable, Equatable {
    /// The host as written, without an IPv6 address's brackets.
    public var host: String
    public var port: UInt16
    /// The path and query, `/` when the URL has none.
    public var path: String

    /// Why a text is not a URL this client can use.
    public struct Problem: Error, Equatable, CustomStringConvertible {
        public let description: String

        public init(description: String) { self.description = description }
    }

    public init(_ url: String) throws(Problem) {
        let scheme = "http://"
        guard url.hasPrefix(scheme) else {
            if url.hasPrefix("https://") {
                throw Problem(
                    description: "https is not spoken here: give the server's own http:// address "
                        + "(the one its TLS proxy forwards to), not '\(url)'")
            }
            throw Problem(description: "the URL must start with http://, not '\(url)'")
        }
        let rest = url.dropFirst(scheme.count)
        let authority = rest.prefix { $0 != "/" }
        path = rest.count > authority.count ? String(rest.dropFirst(authority.count)) : "/"
        var hostPart = Substring(authority)
        var portText: Substring?
        if hostPart.hasPrefix("[") {
            guard let close = hostPart.firstIndex(of: "]") else { throw Problem(description: "no ']' in '\(url)'") }
            let after = hostPart[hostPart.index(after: close)...]
            hostPart = hostPart[hostPart.index(after: hostPart.startIndex)..<close]
            if !after.isEmpty {
                guard after.hasPrefix(":") else { throw Problem(description: "unexpected '\(after)' in '\(url)'") }
                portText = after.dropFirst()
            }
        } else if let colon = hostPart.lastIndex(of: ":") {
            portText = hostPart[hostPart.index(after: colon)...]
            hostPart = hostPart[..<colon]
        }
        guard !hostPart.isEmpty else { throw Problem(description: "no host in '\(url)'") }
        host = String(hostPart)
        if let portText {
            guard let number = UInt16(portText), number > 0 else {
                throw Problem(description: "the port must be a number from 1 to 65535, not '\(portText)'")
            }
            port = number
        } else {
            port = 80
        }
    }

    /// `HOST:PORT` as a Host header writes it: an IPv6 address in brackets.
    public var authority: String { HTTPURL.authority(host: host, port: port) }

    static func authority(host: String, port: UInt16) -> String {
        (host.contains(":") ? "[\(host)]" : host) + ":\(port)"
    }
}
