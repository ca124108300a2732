import Foundation
import HTTPServer
import Sessions
import TabModel
import Views

/// The visitors' sessions as pages use them: found by cookie, changed under the store's lock,
/// made only when a request has something to keep, moved to a new id at log-in and log-out.
/// Pages reach the store through `PageRoutes`, which calls this once per request.
final class Visitors: Sendable {
    static let cookieName = "tabstage_session"

    let store: any SessionStore<VisitorSession>
    let sessionIDs: any SessionIDSource
    let clock: @Sendable () -> Date
    /// Hears of every committed change (open live pages re-read their state).
    let hub: any ChangeHub
    /// Marks the session cookie `Secure` (`serve --secure-cookies`, behind HTTPS).
    let secureCookies: Bool

    init(
        store: any SessionStore<VisitorSession>, sessionIDs: any SessionIDSource, clock: @escaping @Sendable () -> Date,
        hub: any ChangeHub, secureCookies: Bool
    ) {
        self.store = store
        self.sessionIDs = sessionIDs
        self.clock = clock
        self.hub = hub
        self.secureCookies = secureCookies
    }

    /// What a visit to the session gives back.
    struct Visit<Result> {
        var result: Result
        /// The id of the session the request made (nil when it used the visitor's own or made
        /// none), for `attachCookie`.
        var newSession: SessionID?
        /// The session's revision once the visit is over: the one a page drawn from it shows.
        var revision: UInt64
    }

    /// The session named by the request's cookie, if it is well-formed.
    func sessionID(of request: Request) -> SessionID? {
        // Parsed from the cookie's bytes where they lie in the header: no String is made.
        var id: SessionID?
        _ = request.withCookie(named: Self.cookieName) { id = SessionID(cookieBytes: $0) }
        return id
    }

    /// Runs `body` on the visitor's session under the store's lock and keeps what it leaves.
    ///
    /// A visitor without a live session gets a fresh one; it is stored, under a new id from the
    /// id source (never the one the cookie offered), only when `create` is true: a request that
    /// changes nothing leaves no session behind. `body` must only compute: pages are rendered
    /// from what it returns, after the lock is released. It may run more than once (a read
    /// first, a store's retry of a change that lost a race), so what it says is taken from its
    /// last run.
    ///
    /// With `readsFirst`, `body` runs first on a copy of a read of the session (lent where the
    /// store keeps it; it still counts as a use): when it leaves the copy as it was, nothing is
    /// written and its result is the answer. Only a request that changes the session pays for a
    /// change.
    func visit<Result>(
        _ request: Request, create: Bool, readsFirst: Bool = false, _ body: (inout VisitorSession) -> Result
    ) throws(SessionStoreError) -> Visit<Result> {
        let now = clock().timeIntervalSince1970
        let id = sessionID(of: request)
        if readsFirst, let id {
            var revision: UInt64 = 0
            var unchanged: Result?
            // Read through `accepts`, the result kept here: taken only when the store accepts,
            // which is when its last run of `body` set it (a store may run `body` on a state it
            // then finds stale). A session stored before tokens existed gets one from the change
            // below.
            let accepted = try store.accepts(id, now: now) { session in
                guard session.csrfToken != nil else { return false }
                var copy = session
                let result = body(&copy)
                revision = session.revision ?? 0
                guard copy == session else { return false }
                unchanged = result
                return true
            }
            if accepted, let unchanged = unchanged.take() { return Visit(result: unchanged, revision: revision) }
        }
        return try change(id, now: now, create: create, body)
    }

    /// `visit` once it is known that `body` may change the session. A session `body` changed
    /// gets the next revision, and the hub hears of it once the store has it.
    private func change<Result>(
        _ id: SessionID?, now: Double, create: Bool, _ body: (inout VisitorSession) -> Result
    ) throws(SessionStoreError) -> Visit<Result> {
        if let id {
            var presenting: String?
            var revision: UInt64 = 0
            let existing: Result? = try store.modify(id, now: now, announcingThrough: hub) { state in
                presenting = nil
                guard var session = state else { return Announced(nil, notice: nil) }
                let before = session
                // A session stored before tokens existed gets one on its next request.
                if session.csrfToken == nil { session.csrfToken = newCSRFToken() }
                let result = body(&session)
                revision = before.revision ?? 0
                guard session != before else { return Announced(result, notice: nil) }
                revision += 1
                session.revision = revision
                presenting = session.presentation?.code
                state = session
                return Announced(result, notice: ChangeNotice(topic: LiveTopic.session(id), version: revision))
            }
            // A presenter's change renews the follow code's lease with the session's: the code
            // lives as long as the session it names, not only while someone looks it up.
            if let presenting { try store.setAlias(presenting, to: id, now: now) }
            if let existing { return Visit(result: existing, revision: revision) }
        }
        guard create else {
            var throwaway = VisitorSession()
            return Visit(result: body(&throwaway), revision: 0)
        }
        let newID = sessionIDs.next()
        let token = newCSRFToken()
        let result = try store.modify(newID, now: now) { state in
            var session = VisitorSession(csrfToken: token, revision: 0)
            let result = body(&session)
            session.revision = 1
            state = session
            return result
        }
        return Visit(result: result, newSession: newID, revision: 1)
    }

    /// The visitor's session as it is, without touching it: nil without one.
    func read(_ request: Request) throws(SessionStoreError) -> VisitorSession? {
        guard let id = sessionID(of: request) else { return nil }
        return try store.state(of: id, now: clock().timeIntervalSince1970)
    }

    /// Adds the session cookie for a session made by this request.
    func attachCookie(_ id: SessionID?, to response: inout Response) {
        guard let id else { return }
        // The id is 32 hex digits, always a valid cookie value.
        try? response.setCookie(
            Self.cookieName, id.description, path: "/", httpOnly: true, secure: secureCookies, sameSite: .lax)
    }

    // MARK: CSRF and fixation

    /// 128 bits from the same source as session ids (seeded in deterministic mode).
    func newCSRFToken() -> String { sessionIDs.next().description }

    /// Whether a form carries `session`'s token. A post without a live session has no token to
    /// match, so it is refused too: every form that posts is rendered with a session.
    static func carriesToken(_ form: QueryItems, of session: VisitorSession?) -> Bool {
        guard let given = form[CSRFField.name], let expected = session?.csrfToken else { return false }
        return constantTimeEqual(Array(given.utf8), Array(expected.utf8))
    }

    static func constantTimeEqual(_ left: [UInt8], _ right: [UInt8]) -> Bool {
        guard left.count == right.count else { return false }
        var difference: UInt8 = 0
        for index in left.indices { difference |= left[index] ^ right[index] }
        return difference == 0
    }

    /// Moves the visitor's session to a new id with a new CSRF token after `change`, and
    /// removes the old id: a session id seen before log-in or log-out is worthless after it.
    /// One step in the store (`SessionStore.move`): a change another request makes to the old id
    /// meanwhile is moved too, never lost. `change` runs under the store's lock: it only computes.
    func rotate(_ request: Request, _ change: (inout VisitorSession) -> Void) throws(SessionStoreError) -> SessionID {
        let now = clock().timeIntervalSince1970
        // Token first, then id: the order the seeded source has always drawn them in.
        let token = newCSRFToken()
        let newID = sessionIDs.next()
        let oldID = sessionID(of: request)
        var moved = VisitorSession()
        try store.move(from: oldID, to: newID, now: now) { existing in
            var session = existing ?? VisitorSession()
            change(&session)
            session.csrfToken = token
            session.revision = (session.revision ?? 0) + 1
            moved = session
            return session
        }
        if let presentation = moved.presentation { try store.setAlias(presentation.code, to: newID, now: now) }
        // Pages of the old id hear that it is gone (they reconnect, with the new cookie).
        if let oldID { hub.publish(ChangeNotice(topic: LiveTopic.session(oldID), version: LiveTopic.gone)) }
        return newID
    }
}
