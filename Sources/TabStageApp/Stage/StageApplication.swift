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

    public let apps: [AppDescription]
    let store: any SessionStore<VisitorSession>
    let sessionIDs: any SessionIDSource
    let clock: @Sendable () -> Date
    let icons: IconRenderer

    public init(
        apps: [AppDescription], store: any SessionStore<VisitorSession>, sessionIDs: any SessionIDSource,
        clock: @escaping @Sendable () -> Date, icons: IconRenderer = IconRenderer()
    ) {
        self.apps = apps
        self.store = store
        self.sessionIDs = sessionIDs
        self.clock = clock
        self.icons = icons
    }

    /// Random ids, the real clock, an in-memory store with these limits.
    public static func live(apps: [AppDescription] = BuiltInApps.all, limits: SessionLimits) -> StageApplication {
        StageApplication(
            apps: apps, store: MemorySessionStore<VisitorSession>(limits: limits), sessionIDs: RandomSessionIDs(),
            clock: { Date() })
    }

    /// Seeded ids and a stopped clock: the same requests give the same bytes.
    public static func deterministic(
        apps: [AppDescription] = BuiltInApps.all, limits: SessionLimits = SessionLimits()
    ) -> StageApplication {
        StageApplication(
            apps: apps, store: MemorySessionStore<VisitorSession>(limits: limits),
            sessionIDs: SeededSessionIDs(seed: deterministicSeed), clock: { deterministicEpoch })
    }

    func app(id: String) -> AppDescription? { apps.first { $0.id == id } }

    // MARK: Sessions

    /// The session named by the request's cookie, if it is well-formed and alive.
    func sessionID(of request: Request) -> SessionID? {
        request.cookies[Self.sessionCookie].flatMap { SessionID(cookieValue: $0) }
    }

    /// Runs `body` on the visitor's session under the store's lock and keeps what it leaves.
    ///
    /// A visitor without a live session gets a fresh one; it is stored, under a new id from
    /// the id source (never the one the cookie offered), only when `create` is true: a request
    /// that changes nothing leaves no session behind. `body` must only compute: pages are
    /// rendered from what it returns, after the lock is released.
    func withVisitor<Result>(
        _ request: Request, create: Bool, _ body: (inout VisitorSession) -> Result
    ) throws(SessionStoreError) -> (result: Result, newSession: SessionID?) {
        let now = clock().timeIntervalSince1970
        if let id = sessionID(of: request) {
            let existing: Result? = try store.modify(id, now: now) { state in
                guard var session = state else { return nil }
                let result = body(&session)
                state = session
                return result
            }
            if let existing { return (existing, nil) }
        }
        guard create else {
            var throwaway = VisitorSession()
            return (body(&throwaway), nil)
        }
        let newID = sessionIDs.next()
        let result = try store.modify(newID, now: now) { state in
            var session = VisitorSession()
            let result = body(&session)
            state = session
            return result
        }
        return (result, newID)
    }

    /// Adds the session cookie for a session made by this request.
    func attachCookie(_ id: SessionID?, to response: inout Response) {
        guard let id else { return }
        // The id is 32 hex digits, always a valid cookie value.
        try? response.setCookie(Self.sessionCookie, id.description, path: "/", httpOnly: true, sameSite: .lax)
    }
}

/// A session store that failed: 503, and nothing half-done.
extension SessionStoreError: HTTPResponseError {
    public var status: HTTPStatus { .serviceUnavailable }
}
