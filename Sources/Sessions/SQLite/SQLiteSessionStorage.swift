import CSQLite
import Foundation

/// The connection, prepared statements and in-memory bookkeeping behind `SQLiteSessionStore`.
/// Not thread-safe on its own: the store calls it under its lock only.
final class SQLiteSessionStorage<State: Codable & Equatable> {
    /// Uses batched before their recency is written even without a change to carry it.
    static var usesPerBatch: Int { 512 }
    /// Seconds a use may wait in the batch: bounds how much recency a crash can lose.
    static var batchAge: Double { 60 }

    let connection: SQLiteConnection
    private let select: SQLiteStatement
    private let upsert: SQLiteStatement
    private let delete: SQLiteStatement
    private let touch: SQLiteStatement
    private let begin: SQLiteStatement
    private let commit: SQLiteStatement
    private let upsertAlias: SQLiteStatement
    private let deleteAlias: SQLiteStatement
    private let touchAlias: SQLiteStatement

    /// Every live session, most recently used first (the state slot is unused).
    private var recency = RecencyTable<Void>()
    /// Decoded states of the most recently used sessions; the file holds all of them.
    private var cache = RecencyTable<State>()
    private let cachedStates: Int
    /// Recency not yet in the file, and sessions expired or evicted in memory but still there.
    private var pendingUses: [SessionID: Double] = [:]
    private var pendingDeletions: Set<SessionID> = []
    private var pendingSince: Double?
    /// Every alias of the file, with its last use; uses go to the file in the sessions' batches.
    private var aliases: [String: (id: SessionID, lastUsed: Double)] = [:]
    private var pendingAliasUses: [String: Double] = [:]

    private let encoder = JSONEncoder()
    private let decoder = JSONDecoder()

    init(connection: SQLiteConnection, cachedStates: Int, decoderUserInfo: [CodingUserInfoKey: any Sendable])
        throws(SQLiteError)
    {
        decoder.userInfo = decoderUserInfo
        self.connection = connection
        self.cachedStates = max(0, cachedStates)
        select = try connection.prepare("SELECT state FROM sessions WHERE id = ?1")
        upsert = try connection.prepare(
            """
            INSERT INTO sessions (id, state, last_used) VALUES (?1, ?2, ?3)
            ON CONFLICT (id) DO UPDATE SET state = excluded.state, last_used = excluded.last_used
            """)
        delete = try connection.prepare("DELETE FROM sessions WHERE id = ?1")
        touch = try connection.prepare("UPDATE sessions SET last_used = ?2 WHERE id = ?1")
        begin = try connection.prepare("BEGIN IMMEDIATE")
        commit = try connection.prepare("COMMIT")
        upsertAlias = try connection.prepare(
            """
            INSERT INTO aliases (alias, session, last_used) VALUES (?1, ?2, ?3)
            ON CONFLICT (alias) DO UPDATE SET session = excluded.session, last_used = excluded.last_used
            """)
        deleteAlias = try connection.prepare("DELETE FROM aliases WHERE alias = ?1")
        touchAlias = try connection.prepare("UPDATE aliases SET last_used = ?2 WHERE alias = ?1")
        let aliasRows = try connection.prepare("SELECT alias, session, last_used FROM aliases").rows {
            row in (row.bytes(at: 0), row.bytes(at: 1), row.double(at: 2))
        }
        for (alias, session, lastUsed) in aliasRows {
            guard let id = SessionID(key: session) else { continue }
            aliases[String(decoding: alias, as: UTF8.self)] = (id, lastUsed)
        }
        // Oldest first, so each one stored becomes the newest: the list ends in recency order.
        let rows = try connection.prepare("SELECT id, last_used FROM sessions ORDER BY last_used").rows {
            row in (row.bytes(at: 0), row.double(at: 1))
        }
        for (key, lastUsed) in rows {
            guard let id = SessionID(key: key) else { continue }
            recency.store((), for: id, at: lastUsed)
        }
    }

    var count: Int { recency.count }

    /// Sweeps expired sessions and returns the state `modify` hands to its body.
    func sessionForChange(_ id: SessionID, now: Double, limits: SessionLimits, path: String)
        throws(SessionStoreError) -> State?
    {
        expire(now: now, limits: limits)
        return try load(id, now: now, path: path)
    }

    /// Keeps what `modify`'s body left: nothing is written when it equals `original`.
    func keep(
        _ state: State?, replacing original: State?, of id: SessionID, now: Double, limits: SessionLimits, path: String
    )
        throws(SessionStoreError)
    {
        switch (original, state) {
        case (nil, nil):
            return
        case (.some(let before), .some(let after)) where before == after:
            noteUse(of: id, state: after, at: now)
            flushPendingIfDue(now: now, path: path)
        case (_, .some(let after)):
            let encoded: [UInt8]
            do {
                encoded = Array(try encoder.encode(after))
            } catch {
                throw SessionStoreError("could not encode session \(id): \(error)")
            }
            try write(path: path) { () throws(SQLiteError) in
                try upsert.run(.blob(id.key), .blob(encoded), .double(now))
            }
            pendingDeletions.remove(id)
            recency.store((), for: id, at: now)
            cache.store(after, for: id, at: now)
            cache.evict(downTo: cachedStates)
            for evicted in recency.evict(downTo: limits.maxSessions) { forget(evicted, at: now) }
        case (.some, nil):
            try write(path: path) { () throws(SQLiteError) in try delete.run(.blob(id.key)) }
            recency.remove(id)
            cache.remove(id)
        }
    }

    func state(of id: SessionID, now: Double, limits: SessionLimits, path: String) throws(SessionStoreError)
        -> State?
    {
        expire(now: now, limits: limits)
        guard let state = try load(id, now: now, path: path) else { return nil }
        noteUse(of: id, state: state, at: now)
        flushPendingIfDue(now: now, path: path)
        return state
    }

    /// Sets or removes `alias` in the file and in memory, and removes every alias idle longer
    /// than the idle timeout (sets are rare: presenting, stopping, logging in).
    func setAlias(_ alias: String, to id: SessionID?, now: Double, limits: SessionLimits, path: String)
        throws(SessionStoreError)
    {
        let lapsed = aliases.filter { $0.value.lastUsed < now - limits.idleTimeout }.map(\.key)
        try write(path: path) { () throws(SQLiteError) in
            for name in lapsed { try deleteAlias.run(.blob(Array(name.utf8))) }
            if let id {
                try upsertAlias.run(.blob(Array(alias.utf8)), .blob(id.key), .double(now))
            } else {
                try deleteAlias.run(.blob(Array(alias.utf8)))
            }
        }
        for name in lapsed { aliases[name] = nil }
        aliases[alias] = id.map { ($0, now) }
    }

    /// The session `alias` names while it has been used within the idle timeout; the lookup is a
    /// use, written with the next batch.
    func session(forAlias alias: String, now: Double, limits: SessionLimits, path: String) -> SessionID? {
        guard let entry = aliases[alias], entry.lastUsed >= now - limits.idleTimeout else { return nil }
        aliases[alias]?.lastUsed = now
        pendingAliasUses[alias] = now
        pendingSince = pendingSince ?? now
        flushPendingIfDue(now: now, path: path)
        return entry.id
    }

    /// Writes the batched recency and deletions in one transaction.
    func flushPending(path: String) throws(SessionStoreError) {
        guard !pendingUses.isEmpty || !pendingDeletions.isEmpty || !pendingAliasUses.isEmpty else { return }
        try write(path: path) { () throws(SQLiteError) in }
    }

    // MARK: Memory

    private func expire(now: Double, limits: SessionLimits) {
        for expired in recency.expire(before: now - limits.idleTimeout) { forget(expired, at: now) }
    }

    /// Drops a session from memory; its row goes with the next transaction.
    private func forget(_ id: SessionID, at now: Double) {
        cache.remove(id)
        pendingUses.removeValue(forKey: id)
        pendingDeletions.insert(id)
        pendingSince = pendingSince ?? now
    }

    private func noteUse(of id: SessionID, state: State, at now: Double) {
        recency.store((), for: id, at: now)
        cache.store(state, for: id, at: now)
        cache.evict(downTo: cachedStates)
        pendingUses[id] = now
        pendingSince = pendingSince ?? now
    }

    /// The state of a live session: from the cache, else read and decoded from the file.
    private func load(_ id: SessionID, now: Double, path: String) throws(SessionStoreError) -> State? {
        // Unknown ids (a forged or expired cookie) never reach the file.
        guard recency.contains(id) else { return nil }
        if let cached = cache.state(of: id) { return cached }
        let rows: [[UInt8]]
        do {
            rows = try select.rows(binding: [.blob(id.key)]) { row in row.bytes(at: 0) }
        } catch {
            throw SessionStoreError("could not read session from the session database at \(path): \(error.message)")
        }
        guard let bytes = rows.first, let state = try? decoder.decode(State.self, from: Data(bytes)) else {
            // A state this build cannot decode (written by an older build whose state type has
            // changed since) is no session: the visitor starts afresh instead of getting 503s forever.
            recency.remove(id)
            forget(id, at: now)
            return nil
        }
        return state
    }

    // MARK: File

    private func flushPendingIfDue(now: Double, path: String) {
        guard let since = pendingSince else { return }
        guard
            pendingUses.count + pendingDeletions.count + pendingAliasUses.count >= Self.usesPerBatch
                || now - since >= Self.batchAge
        else { return }
        // A failed flush loses nothing: the batch stays and goes with the next change, which reports
        // the failure. The read that triggered it has its answer already.
        try? flushPending(path: path)
    }

    /// One transaction: the pending batch, then `change`; memory's batch is cleared only once the
    /// commit succeeded, and a failure rolls everything back.
    private func write(path: String, _ change: () throws(SQLiteError) -> Void) throws(SessionStoreError) {
        do {
            try begin.run()
            for id in pendingDeletions { try delete.run(.blob(id.key)) }
            for (id, lastUsed) in pendingUses { try touch.run(.blob(id.key), .double(lastUsed)) }
            for (alias, lastUsed) in pendingAliasUses {
                try touchAlias.run(.blob(Array(alias.utf8)), .double(lastUsed))
            }
            try change()
            try commit.run()
        } catch {
            if !connection.isInAutocommit { try? connection.execute("ROLLBACK") }
            throw SessionStoreError("could not save to the session database at \(path): \(error.message)")
        }
        pendingUses.removeAll(keepingCapacity: true)
        pendingDeletions.removeAll(keepingCapacity: true)
        pendingAliasUses.removeAll(keepingCapacity: true)
        pendingSince = nil
    }
}

extension SessionID {
    /// The 16-byte primary key: high then low, big-endian.
    var key: [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(16)
        for word in [high, low] {
            for shift in stride(from: 56, through: 0, by: -8) { bytes.append(UInt8(truncatingIfNeeded: word >> shift)) }
        }
        return bytes
    }

    init?(key: [UInt8]) {
        guard key.count == 16 else { return nil }
        let high = key[0..<8].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        let low = key[8..<16].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        self.init(high: high, low: low)
    }
}
