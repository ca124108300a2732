import HTTPServer

/// A response as the test client read it off the wire.
public struct TestResponse: Sendable {
    public let status: Int
    public let reasonPhrase: String
    /// Header fields in the order the server sent them.
    public let headers: HTTPHeaders
    public let body: [UInt8]

    public init(status: Int, reasonPhrase: String, headers: HTTPHeaders, body: [UInt8]) {
        self.status = status
        self.reasonPhrase = reasonPhrase
        self.headers = headers
        self.body = body
    }

    /// The body as UTF-8 text (invalid bytes become U+FFFD).
    public var text: String { String(decoding: body, as: UTF8.self) }

    public func header(_ name: String) -> String? { headers[name] }

    /// True when the server said it will close the connection after this response.
    public var closesConnection: Bool {
        headers.values(for: "Connection").contains { $0.lowercased().contains("close") }
    }
}
