#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Why the test client could not get a response.
public enum TestClientError: Error, Equatable, CustomStringConvertible {
    case cannotResolve(host: String, reason: String)
    case connectFailed(host: String, port: UInt16, errno: Int32)
    case sendFailed(errno: Int32)
    case receiveFailed(errno: Int32)
    case closedBeforeResponse
    case malformedResponse(String)

    public var description: String {
        switch self {
        case .cannotResolve(let host, let reason): "cannot resolve '\(host)': \(reason)"
        case .connectFailed(let host, let port, let code):
            "cannot connect to \(host) port \(port): \(String(cString: strerror(code)))"
        case .sendFailed(let code): "cannot send: \(String(cString: strerror(code)))"
        case .receiveFailed(let code):
            "cannot read the answer: " + (code == EAGAIN ? "no answer in time" : String(cString: strerror(code)))
        case .closedBeforeResponse: "the server closed the connection without a complete response"
        case .malformedResponse(let detail): "malformed response: \(detail)"
        }
    }
}
