/// Values captured by a route's `{name}` segments, already percent-decoded.
public struct Parameters: Sendable, Equatable {
    private let values: [String: String]

    public init(_ values: [String: String] = [:]) { self.values = values }

    public subscript(name: String) -> String? { values[name] }

    /// The value of a parameter the pattern guarantees; throws a 404 if it is missing.
    public func require(_ name: String) throws(HTTPError) -> String {
        guard let value = values[name] else { throw HTTPError(.notFound) }
        return value
    }
}
