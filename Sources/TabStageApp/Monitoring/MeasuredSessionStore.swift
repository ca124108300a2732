import Sessions

/// A session store that counts its calls and failures into `ServerMetrics`, and otherwise
/// hands every call to the store it wraps.
final class MeasuredSessionStore: SessionStore {
    typealias State = VisitorSession
    let base: any SessionStore<VisitorSession>
    let metrics: ServerMetrics

    init(_ base: any SessionStore<VisitorSession>, metrics: ServerMetrics) {
        self.base = base
        self.metrics = metrics
    }

    func modify<Result>(
        _ id: SessionID, now: Double, announcingThrough hub: (any ChangeHub)?,
        _ body: (inout VisitorSession?) -> Announced<Result>
    ) throws(SessionStoreError) -> Result {
        try measured(.modify) { () throws(SessionStoreError) in
            try base.modify(id, now: now, announcingThrough: hub, body)
        }
    }

    func move(from oldID: SessionID?, to newID: SessionID, now: Double, _ body: (VisitorSession?) -> VisitorSession)
        throws(SessionStoreError)
    {
        try measured(.move) { () throws(SessionStoreError) in try base.move(from: oldID, to: newID, now: now, body) }
    }

    func answer<Answer>(_ id: SessionID, now: Double, _ answer: (VisitorSession) -> Answer?)
        throws(SessionStoreError) -> Answer?
    {
        // Not through `measured`: `Answer?` as its generic value would have `Optional<Answer>`'s
        // metadata looked up on every read (this runs unspecialized, behind `any SessionStore`).
        metrics.recordStore(.read)
        do {
            return try base.answer(id, now: now, answer)
        } catch {
            metrics.recordStoreError(error)
            throw error
        }
    }

    func accepts(_ id: SessionID, now: Double, _ answer: (VisitorSession) -> Bool) throws(SessionStoreError) -> Bool {
        try measured(.read) { () throws(SessionStoreError) in try base.accepts(id, now: now, answer) }
    }

    func setAlias(_ alias: String, to id: SessionID?, now: Double) throws(SessionStoreError) {
        try measured(.modify) { () throws(SessionStoreError) in try base.setAlias(alias, to: id, now: now) }
    }

    func session(forAlias alias: String, now: Double) throws(SessionStoreError) -> SessionID? {
        try measured(.read) { () throws(SessionStoreError) in try base.session(forAlias: alias, now: now) }
    }

    var count: Int? { base.count }

    func checkHealth() throws(SessionStoreError) { try base.checkHealth() }

    /// Counts the call as `operation`, and its failure by kind.
    private func measured<Value>(
        _ operation: ServerMetrics.StoreOperation, _ call: () throws(SessionStoreError) -> Value
    ) throws(SessionStoreError) -> Value {
        metrics.recordStore(operation)
        do {
            return try call()
        } catch {
            metrics.recordStoreError(error)
            throw error
        }
    }
}
