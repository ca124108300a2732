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
    func match(_ pathSegments: [String]) -> Parameters? {
        var captured: [String: String] = [:]
        for (index, segment) in segments.enumerated() {
            switch segment {
            case .remainder(let name):
                guard index < pathSegments.count else { return nil }
                captured[name] = pathSegments[index...].joined(separator: "/")
                return Parameters(captured)
            case .literal(let text):
                guard index < pathSegments.count, pathSegments[index] == text else { return nil }
            case .parameter(let name):
                guard index < pathSegments.count, !pathSegments[index].isEmpty else { return nil }
                captured[name] = pathSegments[index]
            }
        }
        return pathSegments.count == segments.count ? Parameters(captured) : nil
    }
}
