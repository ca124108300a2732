/// The aliases of a store whose sessions one process holds (memory, SQLite): kept in that
/// process, each with the time of its last use. Not thread-safe on its own.
struct ProcessAliases: Sendable {
    private struct Entry {
        var id: SessionID
        var lastUsed: Double
    }

    private var entries: [String: Entry] = [:]

    /// Sets or removes `alias`, and forgets every alias idle longer than `idleTimeout` (sets are
    /// rare: presenting, stopping, logging in), so the table holds only live ones.
    mutating func set(_ alias: String, to id: SessionID?, now: Double, idleTimeout: Double) {
        entries = entries.filter { $0.value.lastUsed >= now - idleTimeout }
        entries[alias] = id.map { Entry(id: $0, lastUsed: now) }
    }

    mutating func lookUp(_ alias: String, now: Double, idleTimeout: Double) -> SessionID? {
        guard let entry = entries[alias] else { return nil }
        guard entry.lastUsed >= now - idleTimeout else {
            entries[alias] = nil
            return nil
        }
        entries[alias]?.lastUsed = now
        return entry.id
    }
}
