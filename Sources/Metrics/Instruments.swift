import Synchronization

/// A count that only goes up (requests, operations, errors), safe to bump from any thread.
public final class Counter: Sendable {
    private let value = Atomic<UInt64>(0)

    public init() {}

    public func increment(by amount: UInt64 = 1) { value.wrappingAdd(amount, ordering: .relaxed) }

    public var current: UInt64 { value.load(ordering: .relaxed) }
}

/// Durations counted into fixed buckets, as a Prometheus histogram: each observation bumps
/// one bucket, the count and the sum; the cumulative counts are made when read.
public final class Histogram: Sendable {
    /// Upper bounds in seconds, ascending; observations above the last fall in `+Inf` only.
    public let bounds: [Double]
    private let buckets: [Counter]
    private let overflow = Counter()
    /// The sum in nanoseconds, so that it stays an integer to add atomically.
    private let sumNanoseconds = Counter()

    /// From half a millisecond to ten seconds: a page from memory is well under a millisecond,
    /// one through Redis a few, and a store timeout a second.
    public static let requestBounds: [Double] = [
        0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 10,
    ]

    public init(bounds: [Double] = Histogram.requestBounds) {
        self.bounds = bounds
        buckets = bounds.map { _ in Counter() }
    }

    public func observe(seconds: Double) {
        if let index = bounds.firstIndex(where: { seconds <= $0 }) {
            buckets[index].increment()
        } else {
            overflow.increment()
        }
        sumNanoseconds.increment(by: UInt64(max(0, seconds * 1e9)))
    }

    /// The counts at or below each bound, then the total (the `+Inf` bucket and `_count`).
    public var cumulativeCounts: [UInt64] {
        var running: UInt64 = 0
        var counts: [UInt64] = []
        for bucket in buckets {
            running += bucket.current
            counts.append(running)
        }
        counts.append(running + overflow.current)
        return counts
    }

    public var sumSeconds: Double { Double(sumNanoseconds.current) / 1e9 }

    /// Observations so far.
    public var count: UInt64 { cumulativeCounts.last ?? 0 }
}
