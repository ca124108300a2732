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

    public func modify<Result>(
        _ id: SessionID, now: Double, announcingThrough hub: (any ChangeHub)?,
        _ body: (inout State?) -> Announced<Result>
    ) throws(SessionStoreError) -> Result {
        table.withLock { table in
            table.expire(before: now - limits.idleTimeout)
            var state = table.state(of: id)
            let announced = body(&state)
            if let state {
                table.store(state, for: id, at: now)
                table.evict(downTo: limits.maxSessions)
            } else {
                table.remove(id)
            }
            return announced
        }.published(through: hub)
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

    /// Lends the state to `answer` where the table keeps it, under the lock.
    public func answer<Answer>(_ id: SessionID, now: Double, _ answer: (State) -> Answer?)
        throws(SessionStoreError) -> Answer?
    {
        var given: Answer?
        lend(id, now: now) { given = answer($0) }
        return given
    }

    /// Lends the state to `answer` where the table keeps it, under the lock; not generic, so a
    /// read through `any SessionStore` looks up no metadata.
    public func accepts(_ id: SessionID, now: Double, _ answer: (State) -> Bool) throws(SessionStoreError) -> Bool {
        var accepted = false
        lend(id, now: now) { accepted = answer($0) }
        return accepted
    }

    /// Runs `body` on the state where the table keeps it, counting a use at `now`. Specialized
    /// for the server's sessions, which reach the store through `any SessionStore`, so a read
    /// does not look up the generic `State`'s metadata on every call.
    @_specialize(where State == VisitorSession)
    @discardableResult
    func lend(_ id: SessionID, now: Double, _ body: (State) -> Void) -> Bool {
        table.withLock { table in
            table.expire(before: now - limits.idleTimeout)
            return table.use(id, at: now, body)
        }
    }

    public var count: Int? { table.withLock { $0.count } }

    public func setAlias(_ alias: String, to id: SessionID?, now: Double) throws(SessionStoreError) {
        aliases.withLock { $0.set(alias, to: id, now: now, idleTimeout: limits.idleTimeout) }
    }

    public func session(forAlias alias: String, now: Double) throws(SessionStoreError) -> SessionID? {
        aliases.withLock { $0.lookUp(alias, now: now, idleTimeout: limits.idleTimeout) }
    }
}
