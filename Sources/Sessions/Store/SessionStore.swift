/// Per-visitor state behind one small interface: in memory, or durable.
///
/// Every change goes through `modify(_:now:announcingThrough:_:)`, which runs under the store's
/// lock so two requests of one visitor cannot lose each other's update; a durable store commits
/// before it returns. Every read goes through `answer(_:now:_:)`. The other spellings
/// (`modify(_:now:_:)`, `state(of:now:)`, `read(_:now:_:)`) are built on those two.
public protocol SessionStore<State>: Sendable {
    associatedtype State: Sendable

    /// Runs `body` with the session's state (`nil` when no live session has that id) and keeps
    /// what `body` leaves there: a value stores it (creating the session), `nil` removes it.
    /// The session counts as used at `now` (seconds); `body` must not block, and may run more
    /// than once (a store retries a change that lost a race): its last run counts.
    ///
    /// Once the change is committed, the notice of `body`'s last run (none when it changed
    /// nothing) is published through `hub`; without a hub the change is not announced. A store
    /// that commits through the hub's own server sends the notice with the change, in the same
    /// step.
    func modify<Result>(
        _ id: SessionID, now: Double, announcingThrough hub: (any ChangeHub)?,
        _ body: (inout State?) -> Announced<Result>
    ) throws(SessionStoreError) -> Result

    /// Moves a session to a new id in one step under the store's lock: `body` gets the state of
    /// `oldID` (nil when there is none, or no `oldID`) and returns the state to keep at `newID`,
    /// then `oldID` is removed. A concurrent change to `oldID` lands either before the read (and
    /// moves with it) or after the removal (and finds no session): none is lost in between.
    /// `newID` is written before `oldID` is removed, so a crash in between keeps the state.
    func move(from oldID: SessionID?, to newID: SessionID, now: Double, _ body: (State?) -> State)
        throws(SessionStoreError)

    /// What `answer` gives from the state of a live session: nil when there is none, or when
    /// `answer` gives nothing (the caller then changes the session through `modify`). A store
    /// that holds a session it cannot vouch for (another instance may have changed it) may run
    /// `answer` on it first: a nil from it stands, since `modify` checks what it changes, and an
    /// answer is only returned once the state is known to be current. A store may run `answer`
    /// under its lock on the state where it keeps it (the memory store lends it without a
    /// copy): `answer` only takes out what it needs. Counts as a use at `now`.
    func answer<Answer>(_ id: SessionID, now: Double, _ answer: (State) -> Answer?) throws(SessionStoreError)
        -> Answer?

    /// `answer` for a caller that keeps what it takes out itself: whether `answer` said true
    /// (on a current state, as `answer` returns it). Not generic, so a store reached through
    /// `any SessionStore` need not look up an answer type's metadata on each read; a store that
    /// does not implement it gets `answer`.
    func accepts(_ id: SessionID, now: Double, _ answer: (State) -> Bool) throws(SessionStoreError) -> Bool

    /// Points the second name `alias` (a presenter's follow code) at session `id`, replacing
    /// what it named, or removes it (`id` nil). Every instance sharing the store sees it. An
    /// alias lives the idle timeout past its last set or lookup; it says nothing about the
    /// session, which the caller reads (it may be gone).
    func setAlias(_ alias: String, to id: SessionID?, now: Double) throws(SessionStoreError)

    /// The session `alias` names, while it is set and has not expired; a lookup counts as a use
    /// of the alias at `now`.
    func session(forAlias alias: String, now: Double) throws(SessionStoreError) -> SessionID?

    /// Live sessions (expired ones may be counted until the next change sweeps them); nil when
    /// the store cannot be asked now.
    var count: Int? { get }

    /// Throws when the store cannot serve requests right now (`/healthz` answers 503 then).
    func checkHealth() throws(SessionStoreError)
}

/// What a change returns, and the notice that tells the change's watchers about it.
public struct Announced<Result> {
    public var result: Result
    /// Nil when nothing changed.
    public var notice: ChangeNotice?

    public init(_ result: Result, notice: ChangeNotice?) {
        self.result = result
        self.notice = notice
    }

    /// The result, once the notice is published through `hub`: for a store to call when the
    /// change is committed.
    func published(through hub: (any ChangeHub)?) -> Result {
        if let notice { hub?.publish(notice) }
        return result
    }
}

extension SessionStore {
    public func accepts(_ id: SessionID, now: Double, _ answer: (State) -> Bool) throws(SessionStoreError) -> Bool {
        try self.answer(id, now: now) { answer($0) ? true : nil } ?? false
    }

    /// `modify` announcing nothing.
    public func modify<Result>(_ id: SessionID, now: Double, _ body: (inout State?) -> Result)
        throws(SessionStoreError) -> Result
    {
        try modify(id, now: now, announcingThrough: nil) { Announced(body(&$0), notice: nil) }
    }

    /// The state of a live session, counting as a use at `now`.
    public func state(of id: SessionID, now: Double) throws(SessionStoreError) -> State? {
        try answer(id, now: now) { $0 }
    }

    /// Runs `body` once on the state of a live session, and says whether there was one; counts
    /// as a use at `now`.
    @discardableResult
    public func read(_ id: SessionID, now: Double, _ body: (State) -> Void) throws(SessionStoreError) -> Bool {
        guard let state = try state(of: id, now: now) else { return false }
        body(state)
        return true
    }

    /// A store inside the process is as healthy as the process.
    public func checkHealth() throws(SessionStoreError) {}
}
