/// An error a handler may throw to answer with a specific status instead of 500.
/// Its `description` is shown to the client, so it must not leak internals.
public protocol HTTPResponseError: Error, CustomStringConvertible {
    var status: HTTPStatus { get }
}

/// A ready-made `HTTPResponseError` for handlers: `throw HTTPError(.notFound, "no such tab")`.
public struct HTTPError: HTTPResponseError, Equatable {
    public let status: HTTPStatus
    public let message: String
    public init(_ status: HTTPStatus, _ message: String = "") {
        self.status = status
        self.message = message
    }
    public var description: String { message.isEmpty ? status.reasonPhrase : message }
}
