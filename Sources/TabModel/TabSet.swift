/// A set of tab positions, as a bit mask: apps have at most 12 tabs (see
/// `AppDescription.Limits.tabCount`), and positions past 63 are never stored.
struct TabSet: Sendable, Equatable {
    private var bits: UInt64 = 0

    func contains(_ position: Int) -> Bool {
        (0..<64).contains(position) && bits & (1 << UInt64(position)) != 0
    }

    mutating func insert(_ position: Int) {
        guard (0..<64).contains(position) else { return }
        bits |= 1 << UInt64(position)
    }

    mutating func remove(_ position: Int) {
        guard (0..<64).contains(position) else { return }
        bits &= ~(1 << UInt64(position))
    }
}
