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
    var segmentCount: Int { segments.count }
    let takesRemainder: Bool
    /// The first segment when it is a literal, where most of a router's patterns differ.
    let firstLiteral: String?

    public init(_ pattern: String) {
        description = pattern
        let parts = pattern.split(separator: "/", omittingEmptySubsequences: false).dropFirst()
        let written: [Segment] = parts.map { part in
            guard part.hasPrefix("{"), part.hasSuffix("}"), part.count > 2 else { return .literal(String(part)) }
            let name = part.dropFirst().dropLast()
            if name.hasSuffix("...") { return .remainder(String(name.dropLast(3))) }
            return .parameter(String(name))
        }
        // The first remainder takes the rest of the path: the segments written after it are
        // never compared, and are not kept. A remainder is therefore the last segment.
        let remainder = written.firstIndex { if case .remainder = $0 { true } else { false } }
        segments = remainder.map { Array(written[...$0]) } ?? written
        takesRemainder = remainder != nil
        if case .literal(let text) = segments.first { firstLiteral = text } else { firstLiteral = nil }
    }

    /// `==`, quicker where most comparisons fail: two strings of different lengths are told
    /// apart by their lengths alone (`==` compares the bytes of unequal strings in any case).
    @inline(__always)
    static func same(_ lhs: String, _ rhs: String) -> Bool {
        lhs.utf8.count == rhs.utf8.count && lhs == rhs
    }

    /// Whether a path of `count` segments is of a length this pattern matches.
    func admits(segmentCount count: Int) -> Bool {
        takesRemainder ? count >= segmentCount : count == segmentCount
    }

    /// The captured parameters when `pathSegments` (already decoded) match, nil otherwise.
    /// Matching compares only; values are read from the segments when a handler asks.
    func match(_ pathSegments: [String]) -> Parameters? {
        guard admits(segmentCount: pathSegments.count) else { return nil }
        for (index, segment) in segments.enumerated() {
            switch segment {
            case .remainder: break
            case .literal(let text): guard Self.same(pathSegments[index], text) else { return nil }
            case .parameter: guard !pathSegments[index].isEmpty else { return nil }
            }
        }
        return Parameters(pattern: self, pathSegments: pathSegments)
    }
}
