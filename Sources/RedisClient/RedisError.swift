/// Why a Redis command did not get an answer, or got a refusal.
public enum RedisError: Error, Equatable, CustomStringConvertible {
    /// No connection could be made (refused, no route, bad socket path, the connect timeout).
    case unreachable(String)
    /// The server took longer than the command timeout to answer.
    case timedOut
    /// The connection broke while a command was sent or its answer read.
    case connectionLost(String)
    /// The server answered with an error (a wrong password, a full memory, a script error).
    case refused(String)
    /// An answer of a shape the command never gives.
    case unexpectedReply(String)

    public var description: String {
        switch self {
        case .unreachable(let reason): "cannot connect (\(reason))"
        case .timedOut: "no answer within the command timeout"
        case .connectionLost(let reason): "the connection broke (\(reason))"
        case .refused(let message): "Redis refused: \(message)"
        case .unexpectedReply(let what): "unexpected reply: \(what)"
        }
    }
}

/// How long to wait for Redis: to connect, and for each command's answer.
public struct RedisTimeouts: Sendable, Equatable {
    public var connect: Duration
    public var command: Duration

    public init(connect: Duration = .seconds(1), command: Duration = .seconds(1)) {
        self.connect = connect
        self.command = command
    }
}
