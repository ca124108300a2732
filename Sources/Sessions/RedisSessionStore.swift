import Foundation

/// Sessions in Redis, shared by every TabStage instance that names the same server, database
/// and key prefix: any instance can serve any visitor.
///
/// - Each session is one string key, `<prefix>session:<id>`, holding the state as JSON, with
///   Redis's own expiry: `PX` on every write, refreshed by a use once less than 90% of the
///   idle timeout (at most a minute less) is left, so a read mostly writes nothing.
/// - A read-modify-write reads the value, runs `body` in this process, and commits with a Lua
///   script that writes only if the key still holds exactly the bytes read (compare-and-set);
///   when another instance changed it in between, the whole step runs again on the new value.
///   So two instances changing one session at once lose neither change, and the commit is one
///   round trip that needs no connection state (see docs/several-instances.md for why not
///   `WATCH`/`MULTI`).
/// - A move checks the old key and writes the new one and deletes the old in one script: Redis
///   runs it as one step, so a change racing it either moves with it or finds no session.
/// - A change is committed (Redis answered) before `modify` returns; how far Redis itself
///   keeps it (memory, append-only file, fsync) is Redis's configuration.
/// - `limits.maxSessions` is not counted here: the cap is the Redis server's `maxmemory` with
///   an eviction policy such as `volatile-lru`.
/// - An alias (a presenter's follow code) is one string key, `<prefix>alias:<alias>`, holding
///   the session id, with the same expiry as a session: `PX` when set, refreshed by a lookup.
/// - A stored state that does not decode (garbage, another format) counts as no session: the
///   visitor gets a fresh one under a new id, the key is left as it is, and a line is logged.
/// - Redis unreachable or slow: every operation throws `SessionStoreError`, which a request
///   answers with 503; the next operation tries again, so service resumes once Redis is back.
public final class RedisSessionStore<State: Codable & Sendable & Equatable>: SessionStore {
    public let endpoint: RedisEndpoint
    public let keyPrefix: String
    public let limits: SessionLimits
    private let pool: RedisConnectionPool
    private let scripts: LoadedScripts
    private let decoderUserInfo: [CodingUserInfoKey: any Sendable]
    private let log: @Sendable (String) -> Void
    /// Compare-and-set attempts before a change gives up (with 503) under constant contention.
    static var maximumAttempts: Int { 100 }

    /// The scripts' SHA-1 digests from `SCRIPT LOAD`: a Redis that restarted has forgotten
    /// them, and is sent the script's text once more.
    private struct LoadedScripts: Sendable {
        var read: [UInt8]
        var compareAndSet: [UInt8]
        var move: [UInt8]
    }

    private init(
        endpoint: RedisEndpoint, keyPrefix: String, limits: SessionLimits, pool: RedisConnectionPool,
        scripts: LoadedScripts, decoderUserInfo: [CodingUserInfoKey: any Sendable],
        log: @escaping @Sendable (String) -> Void
    ) {
        self.endpoint = endpoint
        self.keyPrefix = keyPrefix
        self.limits = limits
        self.pool = pool
        self.scripts = scripts
        self.decoderUserInfo = decoderUserInfo
        self.log = log
    }

    /// Connects (within `timeouts.connect`), checks the server answers and loads the scripts;
    /// an unreachable server or a refused login is reported, never waited out.
    ///
    /// `idleConnections` bounds the pool (one per server thread); `decoderUserInfo` is handed to
    /// the decoder as in `SQLiteSessionStore.open`; `log` gets the line about a stored state
    /// that does not decode.
    public static func open(
        endpoint: RedisEndpoint, keyPrefix: String = "tabstage:", limits: SessionLimits = SessionLimits(),
        timeouts: RedisTimeouts = RedisTimeouts(), idleConnections: Int = 8,
        decoderUserInfo: [CodingUserInfoKey: any Sendable] = [:],
        log: @escaping @Sendable (String) -> Void = { _ in }
    ) throws(SessionStoreError) -> RedisSessionStore {
        let pool = RedisConnectionPool(endpoint: endpoint, timeouts: timeouts, idleLimit: idleConnections)
        func load(_ script: String) throws(RedisError) -> [UInt8] {
            try pool.withConnection { (connection) throws(RedisError) -> [UInt8] in
                switch try connection.run([Array("SCRIPT".utf8), Array("LOAD".utf8), Array(script.utf8)]) {
                case .bulk(let digest): return digest
                case .error(let message): throw .refused(message)
                case let other: throw .unexpectedReply("SCRIPT LOAD answered \(other)")
                }
            }
        }
        do {
            let scripts = LoadedScripts(
                read: try load(RedisScripts.read), compareAndSet: try load(RedisScripts.compareAndSet),
                move: try load(RedisScripts.move))
            return RedisSessionStore(
                endpoint: endpoint, keyPrefix: keyPrefix, limits: limits, pool: pool, scripts: scripts,
                decoderUserInfo: decoderUserInfo, log: log)
        } catch {
            throw SessionStoreError(
                "cannot use Redis at \(endpoint): \(error). Start Redis there, check the URL and the password "
                    + "(TABSTAGE_REDIS_PASSWORD), or pass --sessions sqlite", kind: error.storeErrorKind)
        }
    }

    // MARK: SessionStore

    public func modify<Result>(_ id: SessionID, now: Double, _ body: (inout State?) -> Result)
        throws(SessionStoreError) -> Result
    {
        let key = self.key(id)
        for _ in 0..<Self.maximumAttempts {
            let stored = try redis { (connection) throws(RedisError) in try fetch(key, on: connection) }
            let original = decoded(stored, id: id)
            var state = original
            let result = body(&state)
            if state == original { return result }
            let committed = try commit(
                script: scripts.compareAndSet, source: RedisScripts.compareAndSet, keys: [key],
                arguments: expectation(stored) + (try written(state)))
            if committed { return result }
        }
        throw conflict(id)
    }

    public func move(from oldID: SessionID?, to newID: SessionID, now: Double, _ body: (State?) -> State)
        throws(SessionStoreError)
    {
        let newKey = key(newID)
        let oldKey = oldID.map(key) ?? newKey
        for _ in 0..<Self.maximumAttempts {
            var stored: [UInt8]?
            if oldID != nil {
                stored = try redis { (connection) throws(RedisError) in try fetch(oldKey, on: connection) }
            }
            let original = oldID.flatMap { decoded(stored, id: $0) }
            let moved = body(original)
            // Without an old id there is nothing to compare: the script then only writes.
            let expected = oldID == nil ? [Array("any".utf8), []] : expectation(stored)
            let committed = try commit(
                script: scripts.move, source: RedisScripts.move, keys: [oldKey, newKey],
                arguments: expected + [try encoded(moved), ttlArgument])
            if committed { return }
        }
        throw conflict(newID)
    }

    public func state(of id: SessionID, now: Double) throws(SessionStoreError) -> State? {
        let key = self.key(id)
        let stored = try redis { (connection) throws(RedisError) in try fetch(key, on: connection) }
        return decoded(stored, id: id)
    }

    public func setAlias(_ alias: String, to id: SessionID?, now: Double) throws(SessionStoreError) {
        let key = aliasKey(alias)
        let command =
            id.map { [Array("SET".utf8), key, Array($0.description.utf8), Array("PX".utf8), ttlArgument] }
            ?? [Array("DEL".utf8), key]
        let reply = try redis { (connection) throws(RedisError) in try connection.run(command) }
        if case .error(let message) = reply {
            throw SessionStoreError("Redis at \(endpoint) refused an alias: \(message)", kind: .failed)
        }
    }

    public func session(forAlias alias: String, now: Double) throws(SessionStoreError) -> SessionID? {
        let key = aliasKey(alias)
        let stored = try redis { (connection) throws(RedisError) in try fetch(key, on: connection) }
        return stored.flatMap { SessionID(cookieValue: String(decoding: $0, as: UTF8.self)) }
    }

    /// Keys in the Redis database (`DBSIZE`, constant time): every session and alias of every
    /// instance, plus any other keys the database holds, so give TabStage a database of its own.
    /// 0 while Redis cannot be reached.
    public var count: Int {
        let reply = try? redis { (connection) throws(RedisError) in try connection.run([Array("DBSIZE".utf8)]) }
        if case .integer(let keys) = reply { return keys }
        return 0
    }

    public func checkHealth() throws(SessionStoreError) {
        let reply = try redis { (connection) throws(RedisError) in try connection.run([Array("PING".utf8)]) }
        guard case .status = reply else {
            throw SessionStoreError("Redis at \(endpoint) answered PING with \(reply)", kind: .failed)
        }
    }

    /// Closes the pooled connections.
    public func close() { pool.drain() }

    // MARK: Steps

    private func key(_ id: SessionID) -> [UInt8] { Array("\(keyPrefix)session:\(id)".utf8) }
    private func aliasKey(_ alias: String) -> [UInt8] { Array("\(keyPrefix)alias:\(alias)".utf8) }

    /// The idle timeout in milliseconds, at least 1.
    private var ttlMilliseconds: Int { max(1, Int((limits.idleTimeout * 1000).rounded())) }
    private var ttlArgument: [UInt8] { Array(String(ttlMilliseconds).utf8) }

    /// The stored bytes of `key` (nil when there is none), its expiry refreshed when due.
    private func fetch(_ key: [UInt8], on connection: RedisConnection) throws(RedisError) -> [UInt8]? {
        let refreshBelow = ttlMilliseconds - min(60_000, ttlMilliseconds / 10)
        let reply = try evaluate(
            script: scripts.read, source: RedisScripts.read, keys: [key],
            arguments: [ttlArgument, Array(String(refreshBelow).utf8)], on: connection)
        switch reply {
        case .bulk(let bytes): return bytes
        case .null: return nil
        case let other: throw .unexpectedReply("the read script answered \(other)")
        }
    }

    /// The compare-and-set arguments saying what `key` must still hold: exactly `stored`, or nothing.
    private func expectation(_ stored: [UInt8]?) -> [[UInt8]] {
        guard let stored else { return [Array("absent".utf8), []] }
        return [Array("equal".utf8), stored]
    }

    /// The compare-and-set arguments for what a change leaves: a new value, or a removal.
    private func written(_ state: State?) throws(SessionStoreError) -> [[UInt8]] {
        guard let state else { return [Array("delete".utf8), [], []] }
        return [Array("set".utf8), try encoded(state), ttlArgument]
    }

    private func encoded(_ state: State) throws(SessionStoreError) -> [UInt8] {
        do {
            return Array(try JSONEncoder().encode(state))
        } catch {
            throw SessionStoreError("could not encode a session for Redis: \(error)", kind: .failed)
        }
    }

    private func decoded(_ stored: [UInt8]?, id: SessionID) -> State? {
        guard let stored else { return nil }
        let decoder = JSONDecoder()
        decoder.userInfo = decoderUserInfo
        do {
            return try decoder.decode(State.self, from: Data(stored))
        } catch {
            // The id is a visitor's credential: only its first digits are logged.
            log(
                "tabstage: the session \(id.description.prefix(8))… in Redis at \(endpoint) does not decode "
                    + "(\(error)); the visitor gets a fresh session and the key is left as it is")
            return nil
        }
    }

    /// Runs a compare-and-set script: true when it wrote, false when the key had changed.
    private func commit(script: [UInt8], source: String, keys: [[UInt8]], arguments: [[UInt8]])
        throws(SessionStoreError) -> Bool
    {
        let reply = try redis { (connection) throws(RedisError) in
            try evaluate(script: script, source: source, keys: keys, arguments: arguments, on: connection)
        }
        switch reply {
        case .integer(1): return true
        case .integer(0): return false
        case let other: throw SessionStoreError("Redis at \(endpoint): a change script answered \(other)")
        }
    }

    /// `EVALSHA`, or `EVAL` with the text when the server has not got the script (it restarted).
    private func evaluate(
        script digest: [UInt8], source: String, keys: [[UInt8]], arguments: [[UInt8]], on connection: RedisConnection
    ) throws(RedisError) -> RedisReply {
        let rest = [Array(String(keys.count).utf8)] + keys + arguments
        let reply = try connection.run([Array("EVALSHA".utf8), digest] + rest)
        guard case .error(let message) = reply else { return reply }
        guard message.hasPrefix("NOSCRIPT") else { throw .refused(message) }
        let retried = try connection.run([Array("EVAL".utf8), Array(source.utf8)] + rest)
        if case .error(let message) = retried { throw .refused(message) }
        return retried
    }

    private func redis<Value>(_ body: (RedisConnection) throws(RedisError) -> Value) throws(SessionStoreError)
        -> Value
    {
        do {
            return try pool.withConnection(body)
        } catch {
            throw SessionStoreError(
                "the Redis session store at \(endpoint) failed: \(error)", kind: error.storeErrorKind)
        }
    }

    private func conflict(_ id: SessionID) -> SessionStoreError {
        SessionStoreError(
            "a session in Redis at \(endpoint) kept changing under \(Self.maximumAttempts) attempts to change it",
            kind: .conflict)
    }
}

/// The Lua scripts behind `RedisSessionStore`: Redis runs each as one step, nothing between
/// its commands.
enum RedisScripts {
    /// KEYS[1]: the session. ARGV: the idle timeout (ms), the time left (ms) below which a use
    /// refreshes it. Returns the value, or nil.
    static let read = """
        local value = redis.call('GET', KEYS[1])
        if value and redis.call('PTTL', KEYS[1]) < tonumber(ARGV[2]) then
          redis.call('PEXPIRE', KEYS[1], ARGV[1])
        end
        return value
        """

    /// KEYS[1]: the session. ARGV: 'equal' or 'absent', the value read, 'set' or 'delete', the
    /// new value, the idle timeout (ms). Returns 1 when it wrote, 0 when the key had changed.
    static let compareAndSet = """
        local current = redis.call('GET', KEYS[1])
        if ARGV[1] == 'equal' then
          if current ~= ARGV[2] then return 0 end
        elseif current then
          return 0
        end
        if ARGV[3] == 'set' then
          redis.call('SET', KEYS[1], ARGV[4], 'PX', ARGV[5])
        else
          redis.call('DEL', KEYS[1])
        end
        return 1
        """

    /// KEYS: the old id's session, the new one's. ARGV: 'equal', 'absent' or 'any', the old value
    /// read, the moved value, the idle timeout (ms). Writes the new key, then deletes the old
    /// (when it is another key). Returns 1 when it wrote, 0 when the old key had changed.
    static let move = """
        if ARGV[1] ~= 'any' then
          local current = redis.call('GET', KEYS[1])
          if ARGV[1] == 'equal' then
            if current ~= ARGV[2] then return 0 end
          elseif current then
            return 0
          end
        end
        redis.call('SET', KEYS[2], ARGV[3], 'PX', ARGV[4])
        if KEYS[1] ~= KEYS[2] then redis.call('DEL', KEYS[1]) end
        return 1
        """
}
