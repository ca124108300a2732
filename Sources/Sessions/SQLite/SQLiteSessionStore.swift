import CSQLite
import Foundation
import Synchronization

/// How far a commit goes before `modify` returns (`PRAGMA synchronous`).
public enum SessionDurability: Sendable {
    /// `synchronous = NORMAL`: the commit is written to the WAL file before `modify` returns but
    /// not fsynced (that happens at checkpoints). It survives a crash or SIGKILL of the server,
    /// which is what sessions need; a power cut may lose the last commits, never corrupt the file.
    case processCrash
    /// `synchronous = FULL`: every commit is fsynced, surviving a power cut too, at the disk's
    /// flush latency per change.
    case powerLoss
}

/// Sessions in one SQLite file (write-ahead logging), so visitors keep their state across a
/// restart or a crash of the server.
///
/// - Every change is committed before `modify` returns, so a response is only sent once the change
///   is in the file. A `modify` that leaves the state equal to what it was writes nothing.
/// - Idle expiry and the session cap work as in `MemorySessionStore`: the recency of every session
///   is kept in memory and only written to the file in batches (with the next change, or every
///   `usesPerBatch` uses or `batchAge` seconds), so a read costs no write. A crash loses at most that
///   batch of recency, which can only make a session look a little older than it is.
/// - Decoded states of the most recently used sessions are cached; the file is the only copy of the
///   rest. The cache stays correct because this store is the database's only writer: one server
///   process per file.
/// - A failed write (a full disk, a lock held too long, an I/O error) throws `SessionStoreError` and
///   leaves both the file and the memory as they were.
/// - `now` is wall-clock seconds (e.g. `Date().timeIntervalSince1970`): it outlives the process.
public final class SQLiteSessionStore<State: Codable & Sendable & Equatable>: SessionStore {
    public let limits: SessionLimits
    public let path: String
    private let storage: Mutex<SQLiteSessionStorage<State>?>
    /// In this process, not the file: the file has one server, and a presenter's code is set
    /// again when one of their pages reconnects after a restart.
    private let aliases = Mutex(ProcessAliases())

    private init(path: String, limits: SessionLimits, storage: sending SQLiteSessionStorage<State>) {
        self.path = path
        self.limits = limits
        self.storage = Mutex(storage)
    }

    /// Opens the session database at `path`, creating it and its folder if missing.
    ///
    /// Anything that is not a TabStage session database (garbage, a directory, another program's
    /// database, a newer schema, a read-only file) is reported as a `SessionDatabaseError` and left
    /// untouched. `busyTimeout` bounds how long a change waits for another connection's lock.
    ///
    /// `decoderUserInfo` is handed to the decoder of stored states: states holding a `TabContainer`
    /// (a `VisitorSession`) need the apps, `[.appCatalog: AppCatalog(apps)]`. A stored state that
    /// does not decode (no catalog given, a changed state type) counts as no session at all.
    public static func open(
        path: String, limits: SessionLimits = SessionLimits(), durability: SessionDurability = .processCrash,
        cachedStates: Int = 1024, busyTimeout: Duration = .seconds(2),
        decoderUserInfo: [CodingUserInfoKey: any Sendable] = [:]
    ) throws(SessionDatabaseError) -> SQLiteSessionStore {
        // SQLite answers "busy" at once, without waiting out the busy timeout, where waiting could
        // deadlock: two connections switching one new file to WAL at the same instant, each
        // holding the read lock the other needs. Such an open is tried again, within the timeout.
        let deadline = ContinuousClock.now + busyTimeout
        while true {
            do {
                return try openOnce(
                    path: path, limits: limits, durability: durability, cachedStates: cachedStates,
                    busyTimeout: busyTimeout, decoderUserInfo: decoderUserInfo)
            } catch  where error.isBusy && ContinuousClock.now < deadline {
                Thread.sleep(forTimeInterval: 0.005)
            }
        }
    }

    private static func openOnce(
        path: String, limits: SessionLimits, durability: SessionDurability, cachedStates: Int, busyTimeout: Duration,
        decoderUserInfo: [CodingUserInfoKey: any Sendable]
    ) throws(SessionDatabaseError) -> SQLiteSessionStore {
        let (seconds, attoseconds) = busyTimeout.components
        let connection = try SQLiteSessionSchema.openConnection(
            path: path,
            busyTimeoutMilliseconds: Int32(clamping: seconds * 1000 + attoseconds / 1_000_000_000_000_000))
        let storage: SQLiteSessionStorage<State>
        do throws(SQLiteError) {
            let mode = try connection.textColumn("PRAGMA journal_mode = WAL").first ?? ""
            guard mode == "wal" else {
                throw SQLiteError(code: SQLITE_ERROR, message: "journal mode stayed '\(mode)', not 'wal'")
            }
            let synchronous = durability == .processCrash ? "NORMAL" : "FULL"
            try connection.execute("PRAGMA synchronous = \(synchronous)")
            storage = try SQLiteSessionStorage(
                connection: connection, cachedStates: cachedStates, decoderUserInfo: decoderUserInfo)
        } catch {
            throw SessionDatabaseError(path: path, problem: .cannotPrepare(reason: error.message), cause: error)
        }
        return SQLiteSessionStore(path: path, limits: limits, storage: storage)
    }

    public func modify<Result>(
        _ id: SessionID, now: Double, announcingThrough hub: (any ChangeHub)?,
        _ body: (inout State?) -> Announced<Result>
    ) throws(SessionStoreError) -> Result {
        try storage.withLock { (storage) throws(SessionStoreError) -> Announced<Result> in
            guard let open = storage else { throw closedError }
            // body runs here rather than inside the storage, so its result stays its own region.
            let original = try open.sessionForChange(id, now: now, limits: limits, path: path)
            var state = original
            let announced = body(&state)
            try open.keep(state, replacing: original, of: id, now: now, limits: limits, path: path)
            return announced
        }.published(through: hub)
    }

    /// Two commits under the store's lock (this store is its file's only writer): the new id's
    /// row, then the old one's removal. Should the removal fail, the error is thrown and both ids
    /// hold the state.
    public func move(from oldID: SessionID?, to newID: SessionID, now: Double, _ body: (State?) -> State)
        throws(SessionStoreError)
    {
        try storage.withLock { (storage) throws(SessionStoreError) in
            guard let open = storage else { throw closedError }
            var original: State?
            if let oldID { original = try open.sessionForChange(oldID, now: now, limits: limits, path: path) }
            let moved = body(original)
            let replaced = try open.sessionForChange(newID, now: now, limits: limits, path: path)
            try open.keep(moved, replacing: replaced, of: newID, now: now, limits: limits, path: path)
            if let oldID, oldID != newID {
                try open.keep(nil, replacing: original, of: oldID, now: now, limits: limits, path: path)
            }
        }
    }

    /// `answer` runs on the decoded state once the lock is released.
    public func answer<Answer>(_ id: SessionID, now: Double, _ answer: (State) -> Answer?)
        throws(SessionStoreError) -> Answer?
    {
        let state = try storage.withLock { (storage) throws(SessionStoreError) -> State? in
            guard let open = storage else { throw closedError }
            return try open.state(of: id, now: now, limits: limits, path: path)
        }
        return state.flatMap(answer)
    }

    public var count: Int? { storage.withLock { $0?.count ?? 0 } }

    public func setAlias(_ alias: String, to id: SessionID?, now: Double) throws(SessionStoreError) {
        aliases.withLock { $0.set(alias, to: id, now: now, idleTimeout: limits.idleTimeout) }
    }

    public func session(forAlias alias: String, now: Double) throws(SessionStoreError) -> SessionID? {
        aliases.withLock { $0.lookUp(alias, now: now, idleTimeout: limits.idleTimeout) }
    }

    /// Writes the batched recency and closes the file; later calls throw. Closing twice is harmless.
    public func close() throws(SessionStoreError) {
        try storage.withLock { (storage) throws(SessionStoreError) in
            guard let open = storage else { return }
            storage = nil
            try open.flushPending(path: path)
        }
    }

    deinit {
        // A store dropped without `close()` still saves its batched recency when it can.
        try? close()
    }

    private var closedError: SessionStoreError {
        SessionStoreError("the session database at \(path) is closed")
    }

    /// Runs `sql` on the store's connection, under its lock: tests use it to provoke failures.
    func executeForTesting(_ sql: String) throws {
        try storage.withLock { storage in try storage?.connection.execute(sql) }
    }
}
