/// Why the server could not start.
public enum ServerError: Error, Equatable, CustomStringConvertible {
    case invalidHost(String)
    case cannotListen(host: String, port: UInt16, reason: String)
    case alreadyStarted

    public var description: String {
        switch self {
        case .invalidHost(let host): "'\(host)' is not a numeric IPv4 or IPv6 address (or localhost)"
        case .cannotListen(let host, let port, let reason): "cannot listen on \(host) port \(port): \(reason)"
        case .alreadyStarted: "the server is already running"
        }
    }
}
