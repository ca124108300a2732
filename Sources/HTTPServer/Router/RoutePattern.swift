/// A path pattern such as `/icons/{name}/{file}`; a last segment `{rest...}` captures the remaining path.
public struct RoutePattern: Sendable, Equatable, CustomStringConvertible {
    enum Segment: Sendable, Equatable {
        case literal(String)
        case parameter(String)
        case remainder(String)
    }

    let segments: [Segment]
    public let description: String
    /// How many path segments a match has: exactly this many, or at least this many when the
    /// pattern `takesRemainder` (a `{rest...}` segment, which needs one or more).
    let segmentCount: Int
    let takesRemainder: Bool
    /// The first segment when it is a literal, where most of a router's patterns differ.
    let firstLiteral: String?

    public init(_ pattern: String) {
        description = pattern
        let parts = pattern.split(separator: "/", omittingEmptySubsequences: false).dropFirst()
        segments = parts.map { part in
            guard part.hasPrefix("{"), part.hasSuffix("}"), part.count > 2 else { return .literal(String(part)) }
            let name = part.dropFirst().dropLast()
            if name.hasSuffix("...") { return .remainder(String(name.dropLast(3))) }
            return .parameter(String(name))
        }
        // `match` stops at the first remainder: the segments after it are never compared.
        let remainder = segments.firstIndex { if case .remainder = $0 { true } else { false } }
        segmentCount = remainder.map { $0 + 1 } ?? segments.count
        takesRemainder = remainder != nil
        if case .literal(let text) = segments.first { firstLiteral = text } else { firstLiteral = nil }
    }

    /// False when `match` would surely fail, told from the segment count and the first literal:
    /// a router tries its patterns in order, and most of them fail there. Each pattern tried in
    /// full cost ~85 instructions (14 of them before a tab page's route).
    @inline(__always)
    func mayMatch(_ pathSegments: [String]) -> Bool {
        let count = pathSegments.count
        guard takesRemainder ? count >= segmentCount : count == segmentCount else { return false }
        guard let firstLiteral else { return true }
        return pathSegments[0] == firstLiteral
    }

    /// The captured parameters when `pathSegments` (already decoded) match, nil otherwise.
    /// Matching compares only; values are read from the segments when a handler asks.
    func match(_ pathSegments: [String]) -> Parameters? {
        guard mayMatch(pathSegments) else { return nil }
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
