/// A path pattern such as `/icons/{name}/{file}`; a last segment `{rest...}` captures the remaining path.
public struct RoutePattern: Sendable, Equatable, CustomStringConvertible {
    enum Segment: Sendable, Equatable {
        case literal(String)
        case parameter(String)
        case remainder(String)
    }

    let segments: [Segment]
    public let description: String

    public init(_ pattern: String) {
        description = pattern
        let parts = pattern.split(separator: "/", omittingEmptySubsequences: false).dropFirst()
        segments = parts.map { part in
            guard part.hasPrefix("{"), part.hasSuffix("}"), part.count > 2 else { return .literal(String(part)) }
            let name = part.dropFirst().dropLast()
            if name.hasSuffix("...") { return .remainder(String(name.dropLast(3))) }
            return .parameter(String(name))
        }
    }

    /// The captured parameters when `pathSegments` (already decoded) match, nil otherwise.
    /// Matching compares only; values are read from the segments when a handler asks.
    func match(_ pathSegments: [String]) -> Parameters? {
        for (index, segment) in segments.enumerated() {
            switch segment {
            case .remainder:
                guard index < pathSegments.count else { return nil }
                return Parameters(pattern: self, pathSegments: pathSegments)
            case .literal(let text):
                guard index < pathSegments.count, pathSegments[index] == text else { return nil }
            case .parameter:
                guard index < pathSegments.count, !pathSegments[index].isEmpty else { return nil }
            }
        }
        return pathSegments.count == segments.count ? Parameters(pattern: self, pathSegments: pathSegments) : nil
    }
}
