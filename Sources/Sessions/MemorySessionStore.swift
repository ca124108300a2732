import Synchronization

/// Sessions in memory, least recently used first out, idle ones expired.
///
/// Entries sit in one array linked newest-to-oldest by index, so a use, an insert and an
/// eviction are O(1), and expiry only ever looks at the oldest end.
public final class MemorySessionStore<State: Sendable>: SessionStore {
    public let limits: SessionLimits
    private let table: Mutex<RecencyTable<State>>

    public init(limits: SessionLimits = SessionLimits()) {
        self.limits = limits
        table = Mutex(RecencyTable())
    }

    public func modify<Result>(_ id: SessionID, now: Double, _ body: (inout State?) -> Result)
        throws(SessionStoreError) -> Result
    {
        table.withLock { table in
            table.expire(before: now - limits.idleTimeout)
            var state = table.state(of: id)
            let result = body(&state)
            if let state {
                table.store(state, for: id, at: now)
                table.evict(downTo: limits.maxSessions)
            } else {
                table.remove(id)
            }
            return result
        }
    }

    public func state(of id: SessionID, now: Double) throws(SessionStoreError) -> State? {
        table.withLock { table in
            table.expire(before: now - limits.idleTimeout)
            guard let state = table.state(of: id) else { return nil }
            table.store(state, for: id, at: now)
            return state
        }
    }

    public var count: Int { table.withLock { $0.count } }
}

/// The list behind `MemorySessionStore`: not thread-safe on its own.
struct RecencyTable<State> {
    /// Links are 32-bit slot numbers: 4 billion sessions is far past any cap, and each entry is
    /// 8 bytes smaller.
    private struct Entry {
        var id: SessionID
        var state: State
        var lastUsed: Double
        var newer: Int32
        var older: Int32
    }

    private static var none: Int32 { -1 }
    private var slots: [SessionID: Int32] = [:]
    private var entries: [Entry?] = []
    private var freeSlots: [Int32] = []
    private var newest = RecencyTable.none
    private var oldest = RecencyTable.none

    var count: Int { slots.count }

    func state(of id: SessionID) -> State? {
        guard let slot = slots[id] else { return nil }
        return entries[Int(slot)]?.state
    }

    mutating func store(_ state: State, for id: SessionID, at time: Double) {
        if let slot = slots[id] {
            unlink(slot)
            entries[Int(slot)]?.state = state
            entries[Int(slot)]?.lastUsed = time
            linkAsNewest(slot)
            return
        }
        let entry = Entry(id: id, state: state, lastUsed: time, newer: Self.none, older: Self.none)
        let slot: Int32
        if let reused = freeSlots.popLast() {
            slot = reused
            entries[Int(slot)] = entry
        } else {
            slot = Int32(entries.count)
            entries.append(entry)
        }
        slots[id] = slot
        linkAsNewest(slot)
    }

    mutating func remove(_ id: SessionID) {
        guard let slot = slots.removeValue(forKey: id) else { return }
        unlink(slot)
        entries[Int(slot)] = nil
        freeSlots.append(slot)
    }

    /// Drops every session last used before `cutoff`, oldest first, and returns their ids (a
    /// durable store deletes them from its file too).
    @discardableResult
    mutating func expire(before cutoff: Double) -> [SessionID] {
        var removed: [SessionID] = []
        while oldest != Self.none, let entry = entries[Int(oldest)], entry.lastUsed < cutoff {
            remove(entry.id)
            removed.append(entry.id)
        }
        return removed
    }

    /// Drops the least recently used sessions until at most `limit` are left; returns their ids.
    @discardableResult
    mutating func evict(downTo limit: Int) -> [SessionID] {
        var removed: [SessionID] = []
        while slots.count > limit, oldest != Self.none, let entry = entries[Int(oldest)] {
            remove(entry.id)
            removed.append(entry.id)
        }
        return removed
    }

    func contains(_ id: SessionID) -> Bool { slots[id] != nil }

    /// Ids from the most to the least recently used, for tests.
    var idsByRecency: [SessionID] {
        var ids: [SessionID] = []
        var slot = newest
        while slot != Self.none, let entry = entries[Int(slot)] {
            ids.append(entry.id)
            slot = entry.older
        }
        return ids
    }

    private mutating func unlink(_ slot: Int32) {
        guard let entry = entries[Int(slot)] else { return }
        if entry.newer != Self.none { entries[Int(entry.newer)]?.older = entry.older } else { newest = entry.older }
        if entry.older != Self.none { entries[Int(entry.older)]?.newer = entry.newer } else { oldest = entry.newer }
        entries[Int(slot)]?.newer = Self.none
        entries[Int(slot)]?.older = Self.none
    }

    private mutating func linkAsNewest(_ slot: Int32) {
        entries[Int(slot)]?.older = newest
        entries[Int(slot)]?.newer = Self.none
        if newest != Self.none { entries[Int(newest)]?.newer = slot }
        newest = slot
        if oldest == Self.none { oldest = slot }
    }
}
