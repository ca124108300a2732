/// Why the test client could not get a response.
public enum TestClientError: Error, Equatable, CustomStringConvertible {
    case invalidHost(String)
    case connectFailed(host: String, port: UInt16, errno: Int32)
    case sendFailed(errno: Int32)
    case receiveFailed(errno: Int32)
    case closedBeforeResponse
    case malformedResponse(String)

    public var description: String {
        switch self {
        case .invalidHost(let host): "'\(host)' is not a numeric IPv4 address"
        case .connectFailed(let host, let port, let code): "cannot connect to \(host):\(port) (errno \(code))"
        case .sendFailed(let code): "sending failed (errno \(code))"
        case .receiveFailed(let code): "receiving failed or timed out (errno \(code))"
        case .closedBeforeResponse: "the server closed the connection without a complete response"
        case .malformedResponse(let detail): "malformed response: \(detail)"
        }
    }
}
