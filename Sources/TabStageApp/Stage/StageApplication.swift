import Foundation
import HTTPServer
import IconCatalog
import Sessions
import TabModel
import Views

/// The prototype server's behaviour: which apps it knows, where sessions live, where ids and
/// time come from. Routes call into it; it holds no lock of its own (the store does).
public final class StageApplication: Sendable {
    /// The clock of deterministic mode: every event happens at 2026-01-01T00:00:00Z.
    public static let deterministicEpoch = Date(timeIntervalSince1970: 1_767_225_600)
    /// The id seed of deterministic mode.
    public static let deterministicSeed: UInt64 = 0x7AB5_7A6E
    public static let sessionCookie = "tabstage_session"

    /// The apps served, replaceable while serving (`serve --watch`); read `shelf.current` once
    /// per request.
    public let shelf: AppShelf
    let store: any SessionStore<VisitorSession>
    let sessionIDs: any SessionIDSource
    let clock: @Sendable () -> Date
    let icons: IconRenderer
    /// Ready answers for rendered icons, bounded like the renderer's own cache.
    let iconResponses: ByteBoundedCache<IconRequest, TaggedResponses>
    /// Marks the session cookie `Secure` (`serve --secure-cookies`, behind HTTPS).
    let secureCookies: Bool
    /// Where a failing session store is reported (standard error when serving).
    let log: @Sendable (String) -> Void
    /// Carries a notice of every committed session change and app replacement to open pages.
    let hub: any ChangeHub
    /// The open live pages of this process, subscribed to `hub`.
    let liveStreams: LiveStreams
    /// Follow codes and the sessions presenting under them.
    /// The file each app loaded with `serve --app` came from, by app id (the start page names it).
    let appFiles: [String: String]

    public init(
        apps: [AppDescription], store: any SessionStore<VisitorSession>, sessionIDs: any SessionIDSource,
        clock: @escaping @Sendable () -> Date, icons: IconRenderer = IconRenderer(), secureCookies: Bool = false,
        hub: any ChangeHub = LocalChangeHub(), shelf: AppShelf? = nil,
        log: @escaping @Sendable (String) -> Void = StageApplication.standardErrorLog, appFiles: [String: String] = [:]
    ) {
        self.shelf = shelf ?? AppShelf(apps)
        self.store = store
        self.sessionIDs = sessionIDs
        self.clock = clock
        self.icons = icons
        self.iconResponses = ByteBoundedCache(capacityInBytes: IconRenderer.defaultCapacityInBytes) { $0.costInBytes }
        self.secureCookies = secureCookies
        self.log = log
        self.hub = hub
        self.liveStreams = LiveStreams(hub: hub)
        self.appFiles = appFiles
    }

    /// The apps served now.
    public var apps: [AppDescription] { shelf.current.apps }

    public static let standardErrorLog: @Sendable (String) -> Void = { line in
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }

    /// Random ids, the wall clock (the SQLite store keeps Unix seconds across restarts), and the
    /// given store (in memory, or SQLite).
    public static func live(
        apps: [AppDescription] = BuiltInApps.all, store: any SessionStore<VisitorSession>,
        secureCookies: Bool = false, hub: any ChangeHub = LocalChangeHub(), shelf: AppShelf? = nil,
        appFiles: [String: String] = [:]
    ) -> StageApplication {
        StageApplication(
            apps: apps, store: store, sessionIDs: RandomSessionIDs(), clock: { Date() }, secureCookies: secureCookies,
            hub: hub, shelf: shelf, appFiles: appFiles)
    }

    /// Seeded ids and a stopped clock: the same requests give the same bytes.
    public static func deterministic(
        apps: [AppDescription] = BuiltInApps.all, limits: SessionLimits = SessionLimits(), secureCookies: Bool = false,
        hub: any ChangeHub = LocalChangeHub(), shelf: AppShelf? = nil, appFiles: [String: String] = [:]
    ) -> StageApplication {
        StageApplication(
            apps: apps, store: MemorySessionStore<VisitorSession>(limits: limits),
            sessionIDs: SeededSessionIDs(seed: deterministicSeed), clock: { deterministicEpoch },
            secureCookies: secureCookies, hub: hub, shelf: shelf, appFiles: appFiles)
    }

    func app(id: String) -> AppDescription? { shelf.current.app(id: id) }

    // MARK: Sessions

    /// What a visit to the session gives back: what its body returned, and the id of the
    /// session the request made (nil when it used the visitor's own or made none), for
    /// `attachCookie`.
    struct Visit<Result> {
        var result: Result
        var newSession: SessionID?
    }

    /// The session named by the request's cookie, if it is well-formed and alive.
    func sessionID(of request: Request) -> SessionID? {
        request.cookie(named: Self.sessionCookie).flatMap { SessionID(cookieValue: $0) }
    }

    /// Runs `body` on the visitor's session under the store's lock and keeps what it leaves.
    ///
    /// A visitor without a live session gets a fresh one; it is stored, under a new id from
    /// the id source (never the one the cookie offered), only when `create` is true: a request
    /// that changes nothing leaves no session behind. `body` must only compute: pages are
    /// rendered from what it returns, after the lock is released.
    func withVisitor<Result>(
        _ request: Request, create: Bool, _ body: (inout VisitorSession) -> Result
    ) throws(SessionStoreError) -> Visit<Result> {
        let now = clock().timeIntervalSince1970
        return try changeVisitor(sessionID(of: request), now: now, create: create, body)
    }

    /// Like `withVisitor(_:create:_:)`, but `ifUnchanged` may answer from a read of the session
    /// (a reload of the tab on screen, say), returning nil when the request would change it:
    /// then `body` runs as usual. A read is lent where the store keeps it, and nothing is written
    /// (it still counts as a use of the session); `ifUnchanged` copies out only what the page
    /// needs, never the whole session.
    func withVisitor<Result>(
        _ request: Request, create: Bool, ifUnchanged read: (VisitorSession) -> Result?,
        _ body: (inout VisitorSession) -> Result
    ) throws(SessionStoreError) -> Visit<Result> {
        let now = clock().timeIntervalSince1970
        let id = sessionID(of: request)
        if let id {
            // A session stored before tokens existed gets one from `body`.
            let unchanged = try store.answer(id, now: now) { session in
                session.csrfToken != nil ? read(session) : nil
            }
            if let unchanged { return Visit(result: unchanged) }
        }
        return try changeVisitor(id, now: now, create: create, ifUnchanged: read, body)
    }

    /// `withVisitor` once it is known that `body` may change the session. A session `body`
    /// changed gets the next revision, and the hub hears of it once the store has it.
    ///
    /// `ifUnchanged` answers here too when it can, on the state `modify` holds: a store may
    /// have turned the request this way from a state it could not vouch for (a guess), and the
    /// current state may need no change. `body` may run more than once (a store retries a
    /// change that lost a race), so what it says about the change is taken from its last run.
    private func changeVisitor<Result>(
        _ id: SessionID?, now: Double, create: Bool, ifUnchanged read: (VisitorSession) -> Result? = { _ in nil },
        _ body: (inout VisitorSession) -> Result
    ) throws(SessionStoreError) -> Visit<Result> {
        if let id {
            var presenting: String?
            let existing: Result? = try store.modify(id, now: now, announcingThrough: hub) { state in
                presenting = nil
                guard var session = state else { return Announced(nil, notice: nil) }
                if session.csrfToken != nil, let unchanged = read(session) { return Announced(unchanged, notice: nil) }
                let before = session
                // A session stored before tokens existed gets one on its next request.
                if session.csrfToken == nil { session.csrfToken = newCSRFToken() }
                let result = body(&session)
                guard session != before else { return Announced(result, notice: nil) }
                let revision = (before.revision ?? 0) + 1
                session.revision = revision
                presenting = session.presentation?.code
                state = session
                return Announced(result, notice: ChangeNotice(topic: LiveTopic.session(id), version: revision))
            }
            // A presenter's change renews the follow code's lease with the session's: the code
            // lives as long as the session it names, not only while someone looks it up.
            if let presenting { try store.setAlias(presenting, to: id, now: now) }
            if let existing { return Visit(result: existing) }
        }
        guard create else {
            var throwaway = VisitorSession()
            return Visit(result: body(&throwaway))
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
        return Visit(result: result, newSession: newID)
    }

    /// Adds the session cookie for a session made by this request.
    func attachCookie(_ id: SessionID?, to response: inout Response) {
        guard let id else { return }
        // The id is 32 hex digits, always a valid cookie value.
        try? response.setCookie(
            Self.sessionCookie, id.description, path: "/", httpOnly: true, secure: secureCookies, sameSite: .lax)
    }

    // MARK: CSRF and fixation

    /// 128 bits from the same source as session ids (seeded in deterministic mode).
    func newCSRFToken() -> String { sessionIDs.next().description }

    /// Whether a form post carries the token of the session its cookie names. A post without a
    /// live session has no token to match, so it is refused too: every form that posts is
    /// rendered with a session (`GET /login` and the refusal page make one).
    func hasValidCSRFToken(_ request: Request, form: QueryItems) throws(SessionStoreError) -> Bool {
        guard let id = sessionID(of: request), let given = form[CSRFField.name],
            let session = try store.state(of: id, now: clock().timeIntervalSince1970),
            let expected = session.csrfToken
        else { return false }
        return Self.constantTimeEqual(Array(given.utf8), Array(expected.utf8))
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
    func rotateSession(_ request: Request, _ change: (inout VisitorSession) -> Void)
        throws(SessionStoreError) -> SessionID
    {
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

    /// A page made in place of the one asked for (the error page for a wrong app in the path,
    /// say), thrown from deep in a route up to `guarded`, which answers with it.
    struct Answered: Error {
        let response: Response
    }

    /// Wraps a route so a failing session store answers 503 with a log line naming the problem
    /// (the visitor sees no file names), and a thrown `Answered` answers with its page.
    func guarded(_ handler: @escaping Router.Handler) -> Router.Handler {
        { [log] request, parameters in
            do {
                return try handler(request, parameters)
            } catch let answered as Answered {
                return answered.response
            } catch let error as SessionStoreError {
                log("tabstage: session store failed on \(request.method.rawValue) \(request.path): \(error)")
                return .statusPage(.serviceUnavailable, message: "sessions are unavailable; try again later")
            }
        }
    }
}

/// A session store that failed: 503, and nothing half-done.
extension SessionStoreError: HTTPResponseError {
    public var status: HTTPStatus { .serviceUnavailable }
}
