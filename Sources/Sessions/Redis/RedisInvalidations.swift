import Dispatch
import Foundation
import RedisClient
import Synchronization

/// Redis's notices that session keys changed, for `RedisSessionCache`: one connection per
/// process that asks Redis to track every key under a prefix (`CLIENT TRACKING ... BCAST`) and
/// to send the notices to itself (`SUBSCRIBE __redis__:invalidate`), on a thread of its own.
///
/// - Redis sends a notice for every write to such a key, whoever wrote it (an expiry and a
///   flush too), and sends it in the same pass of its event loop as the writer's reply. Before
///   a fresh entry answers a read, the reading thread takes whatever notices have arrived
///   (`catchUp`): a change another instance has answered is then seen here, unless Redis was
///   held up between its two writes for longer than a whole request takes.
/// - The thread sends a `PING` every `heartbeat`; when nothing has come from Redis for `lease`,
///   nothing is fresh until Redis answers again. A Redis that hangs cannot take a change, but a
///   read must not pretend it can answer either: it goes to Redis and fails with 503.
/// - A lost connection makes nothing fresh and is made again, as the change hub's subscriber
///   is, so the cache works again once Redis is back.
final class RedisInvalidations: Sendable {
    typealias Changed = @Sendable ([[UInt8]]) -> Void
    typealias Reset = @Sendable (_ listening: Bool) -> Void

    let endpoint: RedisEndpoint
    let timeouts: RedisTimeouts
    /// The keys tracked: `<prefix>session:`.
    let trackedPrefix: [UInt8]
    let heartbeat: Duration
    let lease: Duration
    private let changed: Changed
    private let reset: Reset
    private let loop: RedisConnectionLoop

    private struct State {
        /// The listening connection, read under the lock by the thread and by `catchUp`.
        var connection: RedisConnection?
        /// Whether notices are coming: connected, subscribed, and heard from within the lease.
        var current = false
        var lastHeard = ContinuousClock.now
        var lastPing = ContinuousClock.now
    }

    private let state = Mutex(State())
    /// The listening connection's socket (-1 while there is none), looked at without the lock:
    /// a reading request takes the lock only when notices have come, or while a thread that
    /// took some off the socket has not applied them yet (`taking`).
    private let listening = Atomic<Int32>(-1)
    /// Set, under the lock, from before notices are read off the socket until they are applied:
    /// a reader that finds the socket empty then waits for them instead of trusting the cache.
    private let taking = Atomic<Bool>(false)

    private static let channel = Array("__redis__:invalidate".utf8)

    /// Starts the thread at once; it connects (and reconnects) by itself.
    init(
        endpoint: RedisEndpoint, timeouts: RedisTimeouts, trackedPrefix: [UInt8],
        heartbeat: Duration = .milliseconds(250), lease: Duration = .seconds(1),
        changed: @escaping Changed, reset: @escaping Reset, log: @escaping @Sendable (String) -> Void
    ) {
        self.endpoint = endpoint
        self.timeouts = timeouts
        self.trackedPrefix = trackedPrefix
        self.heartbeat = heartbeat
        self.lease = lease
        self.changed = changed
        self.reset = reset
        loop = RedisConnectionLoop(role: "the session cache", endpoint: endpoint, log: log)
        loop.start(
            name: "tabstage-redis-invalidations", work: { [self] loop throws(RedisError) in try listen(on: loop) },
            lost: { [self] in lose() })
    }

    /// Whether notices are coming now.
    var isCurrent: Bool { state.withLock { $0.current } }

    /// Takes the notices that have arrived, without waiting: call before trusting a fresh entry.
    func catchUp() {
        let socket = listening.load(ordering: .acquiring)
        // The socket first: a notice read off it since was marked as being taken before.
        guard socket >= 0, RedisConnection.hasInput(socket) || taking.load(ordering: .sequentiallyConsistent)
        else { return }
        state.withLock { takeArrived(&$0) }
    }

    /// Ends the thread and waits for it; nothing is fresh after this.
    func stop() {
        loop.stop()
        lose()
    }

    /// Connects, asks for the notices, and takes them until the connection fails.
    private func listen(on loop: RedisConnectionLoop) throws(RedisError) {
        let connection = try RedisConnection(endpoint, timeouts: timeouts)
        guard loop.attach(connection) else { return }
        guard case .integer(let id) = try connection.run(.clientID) else {
            throw .unexpectedReply("CLIENT ID")
        }
        let tracking = try connection.run(.clientTracking(redirect: id, prefix: trackedPrefix))
        guard case .status = tracking else { throw .unexpectedReply("CLIENT TRACKING answered \(tracking)") }
        let subscribed = try connection.run(.subscribe([Self.channel]))
        guard case .array(let parts) = subscribed, parts.first?.isBulk("subscribe".utf8) == true else {
            throw .unexpectedReply("SUBSCRIBE answered \(subscribed)")
        }
        state.withLock { state in
            state.connection = connection
            listening.store(connection.descriptor, ordering: .releasing)
            state.current = true
            state.lastHeard = .now
            reset(true)
        }
        // The thread does not wake for each notice: the requests that read take them as they go
        // (`catchUp`), and the thread takes the rest once per heartbeat.
        while true {
            loop.pause(heartbeat)
            guard !loop.isStopped else { throw .connectionLost("stopped") }
            try state.withLock { (state) throws(RedisError) in
                guard state.connection === connection else { throw .connectionLost("closed") }
                takeArrived(&state)
                guard state.connection === connection else { throw .connectionLost("closed") }
                try keepAlive(&state, on: connection)
            }
        }
    }

    /// Sends the heartbeat when due, and starts or stops trusting the notices by the lease.
    private func keepAlive(_ state: inout State, on connection: RedisConnection) throws(RedisError) {
        let now = ContinuousClock.now
        if now - state.lastPing >= heartbeat {
            try connection.send(.ping)
            state.lastPing = now
        }
        let heard = now - state.lastHeard < lease
        if heard != state.current {
            state.current = heard
            reset(heard)
        }
    }

    /// Delivers what has arrived; a failed connection is closed, and nothing is fresh.
    private func takeArrived(_ state: inout State) {
        guard let connection = state.connection else { return }
        taking.store(true, ordering: .sequentiallyConsistent)
        defer { taking.store(false, ordering: .sequentiallyConsistent) }
        do {
            let replies = try connection.arrivedReplies()
            guard !replies.isEmpty else { return }
            state.lastHeard = .now
            for reply in replies { deliver(reply) }
        } catch {
            connection.interrupt()
            listening.store(-1, ordering: .releasing)
            state.connection = nil
            state.current = false
            reset(false)
        }
    }

    /// A notice names the keys that changed, or none for "everything" (a flush); a `PING`'s
    /// answer only shows Redis is there.
    private func deliver(_ reply: RedisReply) {
        guard case .array(let parts) = reply, parts.count == 3, parts[0].isBulk("message".utf8),
            parts[1].isBulk(Self.channel)
        else { return }
        switch parts[2] {
        case .array(let keys):
            changed(keys.compactMap { if case .bulk(let key) = $0 { key } else { nil } })
        case .bulk(let key):
            changed([key])
        default:
            reset(true)
        }
    }

    private func lose() {
        state.withLock { state in
            listening.store(-1, ordering: .releasing)
            state.connection = nil
            state.current = false
        }
        reset(false)
    }
}
