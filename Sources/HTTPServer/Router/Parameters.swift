/// Values captured by a route's `{name}` segments, already percent-decoded.
public struct Parameters: Sendable, Equatable {
    private enum Storage: Sendable {
        case values([String: String])
        /// A matched route keeps the pattern and the path's segments (two references, nothing
        /// copied) and reads a value only when asked.
        case matched([RoutePattern.Segment], [String])
    }

    private let storage: Storage

    public init(_ values: [String: String] = [:]) { storage = .values(values) }

    init(pattern: RoutePattern, pathSegments: [String]) { storage = .matched(pattern.segments, pathSegments) }

    public subscript(name: String) -> String? {
        switch storage {
        case .values(let values):
            return values[name]
        case .matched(let segments, let pathSegments):
            // A name used twice keeps its last value, as a dictionary filled in order would: the
            // search starts at the end (a remainder, if any, is the pattern's last segment).
            var index = segments.endIndex
            while index > segments.startIndex {
                index -= 1
                switch segments[index] {
                case .literal: continue
                case .parameter(let parameter):
                    if RoutePattern.same(parameter, name) { return pathSegments[index] }
                case .remainder(let parameter):
                    if RoutePattern.same(parameter, name) { return pathSegments[index...].joined(separator: "/") }
                }
            }
            return nil
        }
    }

    /// The value of a parameter the pattern guarantees; throws a 404 if it is missing.
    public func require(_ name: String) throws(HTTPError) -> String {
        guard let value = self[name] else { throw HTTPError(.notFound) }
        return value
    }

    /// Every captured name with its value.
    var values: [String: String] {
        switch storage {
        case .values(let values):
            return values
        case .matched(let segments, _):
            var values: [String: String] = [:]
            for segment in segments {
                switch segment {
                case .literal: continue
                case .parameter(let name), .remainder(let name): values[name] = self[name]
                }
            }
            return values
        }
    }

    public static func == (lhs: Parameters, rhs: Parameters) -> Bool { lhs.values == rhs.values }
}
