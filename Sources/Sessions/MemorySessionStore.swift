import Synchronization

/// Sessions in memory, least recently used first out, idle ones expired.
///
/// Entries sit in one array linked newest-to-oldest by index, so a use, an insert and an
/// eviction are O(1), and expiry only ever looks at the oldest end.
public final class MemorySessionStore<State: Sendable>: SessionStore {
    public let limits: SessionLimits
    private let table: Mutex<RecencyTable<State>>
    private let aliases = Mutex(ProcessAliases())

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

    /// Specialized for the server's sessions, which reach it through `any SessionStore`, so a
    /// read does not look up the generic `State`'s metadata on every call.
    @_specialize(where State == VisitorSession)
    public func state(of id: SessionID, now: Double) throws(SessionStoreError) -> State? {
        table.withLock { table in
            table.expire(before: now - limits.idleTimeout)
            // A read only moves the entry to the newest end: the state itself stays where it is.
            return table.use(id, at: now)
        }
    }

    public func move(from oldID: SessionID?, to newID: SessionID, now: Double, _ body: (State?) -> State)
        throws(SessionStoreError)
    {
        table.withLock { table in
            table.expire(before: now - limits.idleTimeout)
            let moved = body(oldID.flatMap { table.state(of: $0) })
            table.store(moved, for: newID, at: now)
            if let oldID, oldID != newID { table.remove(oldID) }
            table.evict(downTo: limits.maxSessions)
        }
    }

    /// Lends the state where the table keeps it, under the lock; specialized like
    /// `state(of:now:)`.
    @_specialize(where State == VisitorSession)
    @discardableResult
    public func read(_ id: SessionID, now: Double, _ body: (State) -> Void) throws(SessionStoreError) -> Bool {
        table.withLock { table in
            table.expire(before: now - limits.idleTimeout)
            return table.use(id, at: now, body)
        }
    }

    public var count: Int { table.withLock { $0.count } }

    public func setAlias(_ alias: String, to id: SessionID?, now: Double) throws(SessionStoreError) {
        aliases.withLock { $0.set(alias, to: id, now: now, idleTimeout: limits.idleTimeout) }
    }

    public func session(forAlias alias: String, now: Double) throws(SessionStoreError) -> SessionID? {
        aliases.withLock { $0.lookUp(alias, now: now, idleTimeout: limits.idleTimeout) }
    }
}

/// One entry's place in a `RecencyTable`. Outside the generic table, so that its type (and
/// its array's) is concrete. Links are 32-bit slot numbers: 4 billion sessions is far past any
/// cap, and each node is 8 bytes smaller.
private struct RecencyNode {
    var id: SessionID
    var lastUsed: Double
    var newer: Int32
    var older: Int32
}

/// The list behind `MemorySessionStore`: not thread-safe on its own.
///
/// The links live apart from the states, in an array of a concrete type: the list work that
/// every use does (unlink, relink, expire) then runs as plain code, not through the generic
/// `State`'s value witnesses.
struct RecencyTable<State> {
    private typealias Node = RecencyNode
    private static var none: Int32 { -1 }
    private var slots: [SessionID: Int32] = [:]
    /// Slot by slot: a node and a state, both nil for a free slot.
    private var nodes: [Node?] = []
    private var states: [State?] = []
    private var freeSlots: [Int32] = []
    private var newest = RecencyTable.none
    private var oldest = RecencyTable.none

    var count: Int { slots.count }

    func state(of id: SessionID) -> State? {
        guard let slot = slots[id] else { return nil }
        return states[Int(slot)]
    }

    mutating func store(_ state: State, for id: SessionID, at time: Double) {
        if let slot = slots[id] {
            unlink(slot)
            states[Int(slot)] = state
            nodes[Int(slot)]?.lastUsed = time
            linkAsNewest(slot)
            return
        }
        let node = Node(id: id, lastUsed: time, newer: Self.none, older: Self.none)
        let slot: Int32
        if let reused = freeSlots.popLast() {
            slot = reused
            nodes[Int(slot)] = node
            states[Int(slot)] = state
        } else {
            slot = Int32(nodes.count)
            nodes.append(node)
            states.append(state)
        }
        slots[id] = slot
        linkAsNewest(slot)
    }

    /// The state of `id`, its use recorded (its time and recency) with the same hash lookup.
    mutating func use(_ id: SessionID, at time: Double) -> State? {
        guard let slot = slots[id] else { return nil }
        markUsed(slot: slot, at: time)
        return states[Int(slot)]
    }

    /// `use(_:at:)` lending the state to `body` where it is. It is reached as an `inout` (a live
    /// slot always has a state): do not read `states[slot]` or bind the optional in it here,
    /// which copies the whole state.
    mutating func use(_ id: SessionID, at time: Double, _ body: (State) -> Void) -> Bool {
        guard let slot = slots[id] else { return false }
        markUsed(slot: slot, at: time)
        Self.lend(&states[Int(slot)]!, to: body)
        return true
    }

    private static func lend(_ state: inout State, to body: (State) -> Void) { body(state) }

    private mutating func markUsed(slot: Int32, at time: Double) {
        unlink(slot)
        nodes[Int(slot)]?.lastUsed = time
        linkAsNewest(slot)
    }

    mutating func remove(_ id: SessionID) {
        guard let slot = slots.removeValue(forKey: id) else { return }
        unlink(slot)
        nodes[Int(slot)] = nil
        states[Int(slot)] = nil
        freeSlots.append(slot)
    }

    /// Drops every session last used before `cutoff`, oldest first, and returns their ids (a
    /// durable store deletes them from its file too).
    @discardableResult
    mutating func expire(before cutoff: Double) -> [SessionID] {
        var removed: [SessionID] = []
        while oldest != Self.none, let node = nodes[Int(oldest)], node.lastUsed < cutoff {
            remove(node.id)
            removed.append(node.id)
        }
        return removed
    }

    /// Drops the least recently used sessions until at most `limit` are left; returns their ids.
    @discardableResult
    mutating func evict(downTo limit: Int) -> [SessionID] {
        var removed: [SessionID] = []
        while slots.count > limit, oldest != Self.none, let node = nodes[Int(oldest)] {
            remove(node.id)
            removed.append(node.id)
        }
        return removed
    }

    func contains(_ id: SessionID) -> Bool { slots[id] != nil }

    /// Ids from the most to the least recently used, for tests.
    var idsByRecency: [SessionID] {
        var ids: [SessionID] = []
        var slot = newest
        while slot != Self.none, let node = nodes[Int(slot)] {
            ids.append(node.id)
            slot = node.older
        }
        return ids
    }

    private mutating func unlink(_ slot: Int32) {
        guard let node = nodes[Int(slot)] else { return }
        if node.newer != Self.none { nodes[Int(node.newer)]?.older = node.older } else { newest = node.older }
        if node.older != Self.none { nodes[Int(node.older)]?.newer = node.newer } else { oldest = node.newer }
        nodes[Int(slot)]?.newer = Self.none
        nodes[Int(slot)]?.older = Self.none
    }

    private mutating func linkAsNewest(_ slot: Int32) {
        nodes[Int(slot)]?.older = newest
        nodes[Int(slot)]?.newer = Self.none
        if newest != Self.none { nodes[Int(newest)]?.newer = slot }
        newest = slot
        if oldest == Self.none { oldest = slot }
    }
}

/// Sendable, so that `MemorySessionStore.read` may hand a state from it to the caller's closure
/// under the lock.
extension RecencyTable: Sendable where State: Sendable {}
