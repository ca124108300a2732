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
