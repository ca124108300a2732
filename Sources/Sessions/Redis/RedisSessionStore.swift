import Foundation
import RedisClient

/// Sessions in Redis, shared by every TabStage instance that names the same server, database
/// and key prefix: any instance can serve any visitor.
///
/// - Each session is one string key, `<prefix>session:<id>`, holding a stamp and the state as
///   JSON (`StampedValue`), with Redis's own expiry: `PX` on every write, refreshed by a use
///   once less than 90% of the idle timeout (at most a minute less) is left, so a read mostly
///   writes nothing.
/// - A read-modify-write takes the value, runs `body` in this process, and commits with a Lua
///   script that writes only if the key still holds the value taken (its stamp: compare-and-set);
///   when another instance changed it in between, the whole step runs again on the new value.
///   So two instances changing one session at once lose neither change, and the commit is one
///   round trip that needs no connection state (see docs/several-instances.md for why not
///   `WATCH`/`MULTI`). The same script publishes the change's message on `<prefix>changes`
///   (`RedisChangeMessage`): the session it wrote, for every instance's cache, and the change's
///   notice when the change hub is on this Redis.
/// - A move checks the old key and writes the new one and deletes the old in one script: Redis
///   runs it as one step, so a change racing it either moves with it or finds no session.
/// - Decoded sessions are cached (`RedisSessionCache`) while the client's subscription hears
///   the channel (`RedisSubscription`): a read of a session this instance holds fresh needs no
///   round trip, and a change commits on the state it holds with one compare-and-set, which
///   checks it against Redis (a wrong guess costs one more round trip, never a lost change).
///   Only this store's scripts announce a write: a key Redis evicts or someone else writes is
///   noticed by a change (its compare-and-set fails) or once the cached entry is due for a
///   refresh, not by a read before.
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
///   A change script carries a deadline (`RedisScripts`): one that a hung Redis runs after its
///   sender has given up writes nothing. A change whose answer never came (Redis ran it, then
///   hung or died) is looked up once that deadline has passed: a change found made succeeds,
///   one found not made fails, and one that cannot be told fails with `outcomeUnknown`; in
///   every such case the session leaves the cache, so the next read asks Redis.
public final class RedisSessionStore<State: Codable & Sendable & Equatable>: SessionStore {
    public let client: RedisClient
    public var endpoint: RedisEndpoint { client.endpoint }
    public let keyPrefix: String
    public let limits: SessionLimits
    /// `<prefix>changes`: every change's script publishes its message there
    /// (`RedisChangeMessage`), for every instance's cache and change hub.
    let channel: String
    private let scripts: LoadedScripts
    private let decoderUserInfo: [CodingUserInfoKey: any Sendable]
    private let log: @Sendable (String) -> Void
    let cache: RedisSessionCache<State>?
    /// The cache's listener on the client's subscription.
    private let listening: RedisSubscription.Token?
    /// Whether the store made its client, and closes it.
    private let ownsClient: Bool
    /// Compare-and-set attempts before a change gives up (with 503) under constant contention.
    static var maximumAttempts: Int { 100 }

    /// The scripts as Redis loaded them at opening.
    private struct LoadedScripts: Sendable {
        var compareAndSet: LoadedRedisScript<CompareAndSet>
        var move: LoadedRedisScript<Move>
        var setAlias: LoadedRedisScript<SetAlias>
    }

    private init(
        client: RedisClient, ownsClient: Bool, keyPrefix: String, limits: SessionLimits, scripts: LoadedScripts,
        decoderUserInfo: [CodingUserInfoKey: any Sendable], cachedSessions: Int,
        log: @escaping @Sendable (String) -> Void
    ) {
        self.client = client
        self.ownsClient = ownsClient
        self.keyPrefix = keyPrefix
        self.limits = limits
        self.scripts = scripts
        self.decoderUserInfo = decoderUserInfo
        self.log = log
        channel = keyPrefix + "changes"
        guard cachedSessions > 0 else {
            cache = nil
            listening = nil
            return
        }
        let cache = RedisSessionCache<State>(capacity: cachedSessions)
        self.cache = cache
        listening = client.subscription.listen(
            to: channel,
            .init(
                apply: { message in
                    guard let sessions = RedisChangeMessage(payload: message)?.sessions, !sessions.isEmpty else {
                        return
                    }
                    cache.changed(sessions)
                }, listening: { cache.reset(listening: $0) }))
    }

    deinit { close() }

    /// A store on `client`, which it shares with whatever else uses that Redis (the change hub).
    /// Checks the server answers and loads the scripts: an unreachable server or a refused login
    /// is reported (within `timeouts.connect`), never waited out.
    ///
    /// `cachedSessions` bounds the decoded sessions kept (0: none, every read asks Redis);
    /// `decoderUserInfo` is handed to the decoder as in `SQLiteSessionStore.open`; `log` gets the
    /// line about a stored state that does not decode.
    public static func open(
        client: RedisClient, keyPrefix: String = RedisSettings.defaultKeyPrefix,
        limits: SessionLimits = SessionLimits(),
        cachedSessions: Int = RedisSettings.defaultCachedSessions,
        decoderUserInfo: [CodingUserInfoKey: any Sendable] = [:],
        log: @escaping @Sendable (String) -> Void = { _ in }
    ) throws(SessionStoreError) -> RedisSessionStore {
        try open(
            client: client, ownsClient: false, keyPrefix: keyPrefix, limits: limits, cachedSessions: cachedSessions,
            decoderUserInfo: decoderUserInfo, log: log)
    }

    /// A store with a client of its own (`idleConnections` bounds its pool: one per server
    /// thread), for a process that uses this Redis for nothing else; `log` also gets the line
    /// about the client's subscription losing Redis.
    public static func open(
        endpoint: RedisEndpoint, keyPrefix: String = RedisSettings.defaultKeyPrefix,
        limits: SessionLimits = SessionLimits(),
        timeouts: RedisTimeouts = RedisTimeouts(), idleConnections: Int = 8,
        cachedSessions: Int = RedisSettings.defaultCachedSessions,
        decoderUserInfo: [CodingUserInfoKey: any Sendable] = [:],
        log: @escaping @Sendable (String) -> Void = { _ in }
    ) throws(SessionStoreError) -> RedisSessionStore {
        let client = RedisClient(endpoint: endpoint, timeouts: timeouts, idleConnections: idleConnections, log: log)
        do {
            return try open(
                client: client, ownsClient: true, keyPrefix: keyPrefix, limits: limits, cachedSessions: cachedSessions,
                decoderUserInfo: decoderUserInfo, log: log)
        } catch {
            client.close()
            throw error
        }
    }

    private static func open(
        client: RedisClient, ownsClient: Bool, keyPrefix: String, limits: SessionLimits, cachedSessions: Int,
        decoderUserInfo: [CodingUserInfoKey: any Sendable], log: @escaping @Sendable (String) -> Void
    ) throws(SessionStoreError) -> RedisSessionStore {
        do {
            let scripts = try client.withConnection { (connection) throws(RedisError) in
                LoadedScripts(
                    compareAndSet: try connection.load(RedisScripts.compareAndSet),
                    move: try connection.load(RedisScripts.move), setAlias: try connection.load(RedisScripts.setAlias))
            }
            return RedisSessionStore(
                client: client, ownsClient: ownsClient, keyPrefix: keyPrefix, limits: limits, scripts: scripts,
                decoderUserInfo: decoderUserInfo, cachedSessions: cachedSessions, log: log)
        } catch {
            throw SessionStoreError(
                "cannot use Redis at \(client.endpoint): \(error). Start Redis there, check the URL and the password "
                    + "(TABSTAGE_REDIS_PASSWORD), or pass --sessions sqlite", kind: error.storeErrorKind)
        }
    }

    // MARK: SessionStore

    /// The notice goes with the change, in the message its script publishes, when `hub` is a
    /// `RedisChangeHub` on this store's Redis and channel: one round trip for both.
    public func modify<Result>(
        _ id: SessionID, now: Double, announcingThrough hub: (any ChangeHub)?,
        _ body: (inout State?) -> Announced<Result>
    ) throws(SessionStoreError) -> Result {
        let sameChannel = (hub as? RedisChangeHub).map { $0.endpoint == endpoint && $0.channel == channel } ?? false
        return try change(id, now: now, noticeInMessage: sameChannel, body).published(through: hub)
    }

    /// Runs `body` until its change commits; the script publishes the change's message, with
    /// its notice when `noticeInMessage`. Returns the last run's result, and its notice unless
    /// the message carried it.
    private func change<Result>(
        _ id: SessionID, now: Double, noticeInMessage: Bool, _ body: (inout State?) -> Announced<Result>
    ) throws(SessionStoreError) -> Announced<Result> {
        let key = self.key(id)
        // The first attempt may start from the cached state; the next ones ask Redis.
        var guess = cached(id, now: now).flatMap { $0.isLikelyCurrent ? $0 : nil }
        for _ in 0..<Self.maximumAttempts {
            let base: Stored
            let trusted: Bool
            if let found = guess.take() {
                base = Stored(bytes: found.entry.stored, state: found.entry.state)
                trusted = found.isFresh
            } else {
                base = try fetchStored(id, now: now)
                trusted = true
            }
            var state = base.state
            let announced = body(&state)
            if state == base.state {
                // A change would have been checked by its commit; an answer from a guess is not.
                if trusted { return Announced(announced.result, notice: nil) }
                continue
            }
            let value = try state.map { (state) throws(SessionStoreError) in try encoded(state) }
            let message = RedisChangeMessage(sessions: [id], notice: noticeInMessage ? announced.notice : nil)
            let check = ChangeCheck(
                key: key, made: Expectation(startingFrom: value), notMade: Expectation(startingFrom: base.bytes))
            let committed = try commit(scripts.compareAndSet, checkedBy: check, unanswered: { cache?.forget(id) }) {
                deadline in
                CompareAndSet(
                    session: key, deadline: deadline, expected: Expectation(startingFrom: base.bytes), value: value,
                    ttlMilliseconds: ttlMilliseconds, announcement: publication(message))
            }
            if committed {
                let expiresAt = now + Double(ttlMilliseconds) / 1000
                if let value, let state {
                    cache?.wrote(id, .init(stored: value, state: state, expiresAt: expiresAt))
                } else {
                    cache?.wrote(id, nil)
                }
                // A notice the script sent is not the caller's to publish.
                return noticeInMessage ? Announced(announced.result, notice: nil) : announced
            }
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
                stored = try redis { (connection) throws(RedisError) in try fetch(oldKey, on: connection) }?.value
            }
            let original = oldID.flatMap { id in stored.flatMap { decoded($0, id: id) } }
            let moved = body(original)
            // Without an old id there is nothing to compare: the script then only writes.
            let expected = oldID == nil ? Expectation.any : Expectation(startingFrom: stored)
            let value = try encoded(moved)
            let message = RedisChangeMessage(sessions: (oldID.map { [$0] } ?? []) + [newID], notice: nil)
            // The new id's key is a new one: holding anything but the moved value, it was not written.
            let check = ChangeCheck(
                key: newKey, made: Expectation(startingFrom: value), notMade: oldKey == newKey ? expected : .absent)
            let forget = {
                if let oldID { self.cache?.forget(oldID) }
                self.cache?.forget(newID)
            }
            let committed = try commit(scripts.move, checkedBy: check, unanswered: forget) { deadline in
                Move(
                    from: oldKey, to: newKey, deadline: deadline, expected: expected, value: value,
                    ttlMilliseconds: ttlMilliseconds, announcement: publication(message))
            }
            if committed {
                if let oldID { cache?.wrote(oldID, nil) }
                cache?.wrote(newID, nil)
                return
            }
        }
        throw conflict(newID)
    }

    public func answer<Answer>(_ id: SessionID, now: Double, _ answer: (State) -> Answer?)
        throws(SessionStoreError) -> Answer?
    {
        if let found = cached(id, now: now), found.isLikelyCurrent {
            // A nil stands even from a guess: the change that follows is checked when committed.
            guard let given = answer(found.entry.state) else { return nil }
            if found.isFresh { return given }
        }
        return try fetchStored(id, now: now).state.flatMap(answer)
    }

    public func setAlias(_ alias: String, to id: SessionID?, now: Double) throws(SessionStoreError) {
        let key = aliasKey(alias)
        let made = id.map { Expectation.equal(Array($0.description.utf8)) } ?? .absent
        _ = try commit(scripts.setAlias, checkedBy: ChangeCheck(key: key, made: made, notMade: nil)) { deadline in
            SetAlias(alias: key, deadline: deadline, session: id, ttlMilliseconds: ttlMilliseconds)
        }
    }

    public func session(forAlias alias: String, now: Double) throws(SessionStoreError) -> SessionID? {
        let key = aliasKey(alias)
        let stored = try redis { (connection) throws(RedisError) in try fetch(key, on: connection) }?.value
        return stored.flatMap { SessionID(cookieValue: String(decoding: $0, as: UTF8.self)) }
    }

    /// Keys in the Redis database (`DBSIZE`, constant time): every session and alias of every
    /// instance, plus any other keys the database holds, so give TabStage a database of its own.
    /// nil while Redis cannot be reached.
    public var count: Int? {
        let reply = try? redis { (connection) throws(RedisError) in try connection.run(.dbsize) }
        if case .integer(let keys) = reply { return keys }
        return nil
    }

    public func checkHealth() throws(SessionStoreError) {
        let reply = try redis { (connection) throws(RedisError) in try connection.run(.ping) }
        guard case .status = reply else {
            throw SessionStoreError("Redis at \(endpoint) answered PING with \(reply)", kind: .failed)
        }
    }

    /// Whether Redis's notices are coming, so that fresh cached sessions answer reads.
    var isCaching: Bool { cache != nil && client.subscription.isListening(to: channel) }

    /// Stops the cache's listening; closes the client when the store made it.
    public func close() {
        if let listening { client.subscription.stopListening(listening) }
        if ownsClient { client.close() }
    }

    // MARK: Steps

    private func key(_ id: SessionID) -> [UInt8] { Array("\(keyPrefix)session:\(id)".utf8) }
    private func aliasKey(_ alias: String) -> [UInt8] { Array("\(keyPrefix)alias:\(alias)".utf8) }

    /// `message` on this store's channel, as a change's script publishes it.
    private func publication(_ message: RedisChangeMessage) -> Publication {
        Publication(channel: Array(channel.utf8), message: message.payload)
    }

    /// The idle timeout in milliseconds, at least 1.
    private var ttlMilliseconds: Int { max(1, Int((limits.idleTimeout * 1000).rounded())) }

    /// The stored bytes of `key` (nil when there is none), its expiry refreshed when due.
    ///
    /// `GET` and `PTTL` go in one round trip, without a script: a read is the commonest
    /// operation, and plain commands cost Redis a fraction of a script's run. The expiry is
    /// refreshed by a `PEXPIRE` of its own only when less than the refresh margin is left; a
    /// change racing it (a new value, a removal) only ever makes the refresh moot.
    private func fetch(_ key: [UInt8], on connection: RedisConnection) throws(RedisError) -> Fetched? {
        let replies = try connection.pipeline([.get(key), .pttl(key)])
        let value: [UInt8]
        switch replies.first {
        case .bulk(let bytes): value = bytes
        case .null: return nil
        case let other: throw .unexpectedReply("GET answered \(String(describing: other))")
        }
        guard case .integer(let left) = replies.last, left >= 0, left >= refreshBelowMilliseconds else {
            _ = try connection.run(.pexpire(key, milliseconds: ttlMilliseconds))
            return Fetched(value: value, millisecondsLeft: ttlMilliseconds)
        }
        return Fetched(value: value, millisecondsLeft: left)
    }

    /// A value read, and how long Redis keeps it from the read on.
    private struct Fetched {
        var value: [UInt8]
        var millisecondsLeft: Int
    }

    /// A use with less than this left pushes the expiry back (at most a minute late).
    private var refreshBelowMilliseconds: Int { ttlMilliseconds - min(60_000, ttlMilliseconds / 10) }

    /// What Redis holds for a key as a change starts from it: the bytes (nil: no key) and their
    /// state (nil too when they do not decode).
    private struct Stored {
        var bytes: [UInt8]?
        var state: State?
    }

    /// The cached entry of session `id`, once the notices that have arrived are taken.
    private func cached(_ id: SessionID, now: Double) -> RedisSessionCache<State>.Found? {
        guard let cache else { return nil }
        client.subscription.catchUp()
        return cache.look(id, now: now, refreshMargin: Double(ttlMilliseconds - refreshBelowMilliseconds) / 1000)
    }

    /// Reads session `id` from Redis and keeps what it found in the cache; bytes equal to the
    /// cached ones keep their decoded state (no decoding).
    private func fetchStored(_ id: SessionID, now: Double) throws(SessionStoreError) -> Stored {
        let key = self.key(id)
        let ticket = cache?.fetching(id)
        let fetched: Fetched?
        do {
            fetched = try redis { (connection) throws(RedisError) in try fetch(key, on: connection) }
        } catch {
            if let ticket { cache?.fetched(ticket, nil) }
            throw error
        }
        guard let fetched else {
            if let ticket { cache?.fetched(ticket, nil) }
            return Stored(bytes: nil, state: nil)
        }
        let known = cache?.look(id, now: now, refreshMargin: 0)?.entry
        let state = known?.stored == fetched.value ? known?.state : decoded(fetched.value, id: id)
        if let ticket {
            let expiresAt = now + Double(fetched.millisecondsLeft) / 1000
            cache?.fetched(ticket, state.map { .init(stored: fetched.value, state: $0, expiresAt: expiresAt) })
        }
        return Stored(bytes: fetched.value, state: state)
    }

    private func encoded(_ state: State) throws(SessionStoreError) -> [UInt8] {
        do {
            return StampedValue.make(json: try JSONEncoder().encode(state))
        } catch {
            throw SessionStoreError("could not encode a session for Redis: \(error)", kind: .failed)
        }
    }

    private func decoded(_ stored: [UInt8], id: SessionID) -> State? {
        let decoder = JSONDecoder()
        decoder.userInfo = decoderUserInfo
        do {
            return try decoder.decode(State.self, from: Data(StampedValue.json(in: stored)))
        } catch {
            // The id is a visitor's credential: only its first digits are logged.
            log(
                "tabstage: the session \(id.description.prefix(8))… in Redis at \(endpoint) does not decode "
                    + "(\(error)); the visitor gets a fresh session and the key is left as it is")
            return nil
        }
    }

    func redis<Value>(_ body: (RedisConnection) throws(RedisError) -> Value) throws(SessionStoreError)
        -> Value
    {
        do {
            return try client.withConnection(body)
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
