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

    func modify<Result>(_ id: SessionID, now: Double, _ body: (inout VisitorSession?) -> Result)
        throws(SessionStoreError) -> Result
    {
        metrics.recordStore(.modify)
        do {
            return try base.modify(id, now: now, body)
        } catch {
            metrics.recordStoreError(error)
            throw error
        }
    }

    func move(from oldID: SessionID?, to newID: SessionID, now: Double, _ body: (VisitorSession?) -> VisitorSession)
        throws(SessionStoreError)
    {
        metrics.recordStore(.move)
        do {
            try base.move(from: oldID, to: newID, now: now, body)
        } catch {
            metrics.recordStoreError(error)
            throw error
        }
    }

    func state(of id: SessionID, now: Double) throws(SessionStoreError) -> VisitorSession? {
        metrics.recordStore(.read)
        do {
            return try base.state(of: id, now: now)
        } catch {
            metrics.recordStoreError(error)
            throw error
        }
    }

    @discardableResult
    func read(_ id: SessionID, now: Double, _ body: (VisitorSession) -> Void) throws(SessionStoreError) -> Bool {
        metrics.recordStore(.read)
        do {
            return try base.read(id, now: now, body)
        } catch {
            metrics.recordStoreError(error)
            throw error
        }
    }

    var count: Int { base.count }

    func checkHealth() throws(SessionStoreError) { try base.checkHealth() }
}
