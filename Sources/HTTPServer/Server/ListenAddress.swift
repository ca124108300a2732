#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A numeric listen address as the socket API wants it.
enum ListenAddress {
    case v4(sockaddr_in)
    case v6(sockaddr_in6)

    init(host: String, port: UInt16) throws(ServerError) {
        let numeric = host == "localhost" ? "127.0.0.1" : host
        var v4 = sockaddr_in()
        if inet_pton(AF_INET, numeric, &v4.sin_addr) == 1 {
            v4.sin_family = sa_family_t(AF_INET)
            v4.sin_port = port.bigEndian
            self = .v4(v4)
            return
        }
        let unbracketed =
            numeric.hasPrefix("[") && numeric.hasSuffix("]") ? String(numeric.dropFirst().dropLast()) : numeric
        var v6 = sockaddr_in6()
        if inet_pton(AF_INET6, unbracketed, &v6.sin6_addr) == 1 {
            v6.sin6_family = sa_family_t(AF_INET6)
            v6.sin6_port = port.bigEndian
            self = .v6(v6)
            return
        }
        throw .invalidHost(host)
    }

    var isIPv6: Bool {
        if case .v6 = self { return true }
        return false
    }

    func withSockaddr<Result>(_ body: (UnsafePointer<sockaddr>) -> Result) -> Result {
        switch self {
        case .v4(var address):
            withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1, body) }
        case .v6(var address):
            withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1, body) }
        }
    }
}
