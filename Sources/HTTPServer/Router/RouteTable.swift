/// Which of a router's patterns can match a path, from the path's segment count and first
/// segment: most patterns differ there, so a request compares only the few that remain.
///
/// Patterns are named by their place in the router's list, and every list here keeps that
/// order, so the first pattern that matches is still the first added.
struct RouteTable: Sendable {
    /// The patterns for a path's first segment: those whose first segment is that literal, or
    /// not a literal.
    struct Bucket: Sendable {
        struct Literal: Sendable {
            let segment: String
            let patterns: [Int]
        }

        /// One entry per first-segment literal among the patterns; few, so they are scanned.
        let literals: [Literal]
        /// The patterns whose first segment is not a literal: all a path of any other first
        /// segment can match.
        let others: [Int]

        init(_ indices: [Int], of patterns: [RoutePattern]) {
            others = indices.filter { patterns[$0].firstLiteral == nil }
            var segments: [String] = []
            for index in indices {
                if let literal = patterns[index].firstLiteral, !segments.contains(literal) { segments.append(literal) }
            }
            literals = segments.map { segment in
                Literal(
                    segment: segment,
                    patterns: indices.filter { patterns[$0].firstLiteral.map { $0 == segment } ?? true })
            }
        }

        func patterns(firstSegment: String) -> [Int] {
            for literal in literals where RoutePattern.same(literal.segment, firstSegment) { return literal.patterns }
            return others
        }
    }

    /// At each segment count some pattern has exactly, the patterns a path of that many segments
    /// can match (remainder patterns included); nil at other counts.
    private let byCount: [Bucket?]
    /// The remainder patterns, for paths of a count no exact pattern has.
    private let remainders: Bucket

    init(patterns: [RoutePattern]) {
        let exactCounts = patterns.filter { !$0.takesRemainder }.map(\.segmentCount)
        byCount = (0...(exactCounts.max() ?? 0)).map { count in
            guard exactCounts.contains(count) else { return nil }
            return Bucket(patterns.indices.filter { patterns[$0].admits(segmentCount: count) }, of: patterns)
        }
        remainders = Bucket(patterns.indices.filter { patterns[$0].takesRemainder }, of: patterns)
    }

    /// The places of the patterns that can match `pathSegments`, in the router's order. A path
    /// has at least one segment (`/` is one empty segment).
    func candidates(for pathSegments: [String]) -> [Int] {
        let count = pathSegments.count
        let bucket = count < byCount.count ? byCount[count] ?? remainders : remainders
        guard let first = pathSegments.first else { return [] }
        return bucket.patterns(firstSegment: first)
    }
}
