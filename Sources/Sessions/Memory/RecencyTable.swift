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

    /// Lends the state of `id` to `body` where it is, its use recorded (its time and recency)
    /// with the same hash lookup. It is reached as an `inout` (a live slot always has a state):
    /// do not read `states[slot]` or bind the optional in it here, which copies the whole state.
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
