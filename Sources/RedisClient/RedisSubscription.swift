import Synchronization

/// The one connection of a `RedisClient` that listens to pub/sub channels, on a thread of its
/// own, for every listener in the process: a message published once arrives here once and is
/// handed to each listener of its channel.
///
/// - Whoever reads first takes the messages off the connection: the thread, woken as they come,
///   or a caller of `catchUp()` about to trust what a message would have changed (a cached
///   session). A listener's `apply` runs as its message is taken, under the lock, so once
///   `catchUp()` returns, every message that had arrived has been applied, whichever thread
///   took it. Its `receive` runs after the lock, in the channel's order.
/// - The thread sends a `PING` every `heartbeat`; when nothing has come from Redis for `lease`,
///   no channel is listened to until Redis answers again. A Redis that hangs sends nothing, and
///   a listener must not take that silence for "nothing changed".
/// - A lost connection is made again (`RedisConnectionLoop`) and its channels subscribed again.
///   What was published in between is never delivered: listeners are told they were not
///   listened to (`Listener.listening`), and catch up by other means.
/// - Nothing connects until the first listener comes.
public final class RedisSubscription: Sendable {
    /// What a listener does with its channel's messages.
    public struct Listener: Sendable {
        /// Runs under the subscription's lock as a message is taken, before any `catchUp()`
        /// returns: it only records what the message says (no I/O, no waiting, no call into
        /// the client).
        public var apply: @Sendable ([UInt8]) -> Void
        /// Runs once the lock is released, message by message in the channel's order, on the
        /// thread that took them: it hands the message on and never waits.
        public var receive: (@Sendable ([UInt8]) -> Void)?
        /// Told under the lock whether the channel's messages come as published: true once Redis
        /// has confirmed the subscription and is heard from, false when the connection is lost
        /// or silent past the lease (messages published then may never come).
        public var listening: @Sendable (Bool) -> Void

        public init(
            apply: @escaping @Sendable ([UInt8]) -> Void = { _ in }, receive: (@Sendable ([UInt8]) -> Void)? = nil,
            listening: @escaping @Sendable (Bool) -> Void = { _ in }
        ) {
            self.apply = apply
            self.receive = receive
            self.listening = listening
        }
    }

    /// A listener's handle, for `stopListening`.
    public struct Token: Hashable, Sendable {
        let id: UInt64
        let channel: [UInt8]
    }

    let endpoint: RedisEndpoint
    let timeouts: RedisTimeouts
    let heartbeat: Duration
    let lease: Duration
    private let loop: RedisConnectionLoop

    private struct Channel {
        let name: [UInt8]
        var listeners: [UInt64: Listener] = [:]
        /// Whether Redis has confirmed the subscription on the current connection.
        var subscribed = false
        /// What its listeners were last told (`Listener.listening`).
        var told = false
    }

    /// A message taken whose `receive`s have not run yet.
    private struct Delivery {
        let receivers: [@Sendable ([UInt8]) -> Void]
        let message: [UInt8]
    }

    private struct State {
        var started = false
        /// The listening connection, read under the lock by the thread and by `catchUp`.
        var connection: RedisConnection?
        /// Whether Redis was heard from within the lease.
        var heard = false
        var lastHeard = ContinuousClock.now
        var lastPing = ContinuousClock.now
        /// Few (one per key prefix in use): looked up by comparing a message's channel in place.
        var channels: [Channel] = []
        var nextID: UInt64 = 0
        /// Oldest first; one thread at a time runs them (`delivering`), in this order.
        var outbox: [Delivery] = []
        var delivering = false
    }

    private let state = Mutex(State())
    /// The listening connection's socket (-1 while there is none), looked at without the lock:
    /// a caller of `catchUp` takes the lock only when messages have come, or while a thread that
    /// took some off the socket has not applied them yet (`taking`).
    private let listeningSocket = Atomic<Int32>(-1)
    /// Set, under the lock, from before messages are read off the socket until they are
    /// applied: a caller that finds the socket empty then waits for them instead of going on.
    private let taking = Atomic<Bool>(false)

    init(
        endpoint: RedisEndpoint, timeouts: RedisTimeouts, heartbeat: Duration = .milliseconds(250),
        lease: Duration = .seconds(1), log: @escaping @Sendable (String) -> Void
    ) {
        self.endpoint = endpoint
        self.timeouts = timeouts
        self.heartbeat = heartbeat
        self.lease = lease
        loop = RedisConnectionLoop(role: "the Redis subscription", endpoint: endpoint, log: log)
    }

    /// Hands `channel`'s messages to `listener` from now on; the first listener starts the thread.
    public func listen(to channel: String, _ listener: Listener) -> Token {
        let name = Array(channel.utf8)
        let (token, start) = state.withLock { state in
            state.nextID += 1
            let index: Int
            if let known = state.channels.firstIndex(where: { $0.name == name }) {
                index = known
                if state.channels[index].told { listener.listening(true) }
            } else {
                index = state.channels.count
                state.channels.append(Channel(name: name))
                // Redis's confirmation comes among the messages.
                do {
                    try state.connection?.send(.subscribe([name]))
                } catch {
                    drop(&state)
                }
            }
            state.channels[index].listeners[state.nextID] = listener
            let start = !state.started
            state.started = true
            return (Token(id: state.nextID, channel: name), start)
        }
        if start {
            loop.start(
                name: "tabstage-redis-subscription", work: { [self] loop throws(RedisError) in try listen(on: loop) },
                lost: { [self] in state.withLock { drop(&$0) } })
        }
        return token
    }

    /// Hands that listener nothing more. The channel stays subscribed.
    public func stopListening(_ token: Token) {
        state.withLock { state in
            guard let index = state.channels.firstIndex(where: { $0.name == token.channel }) else { return }
            state.channels[index].listeners[token.id] = nil
        }
    }

    /// Whether Redis has confirmed the subscription to `channel` on a live connection: messages
    /// published from then on reach its listeners.
    public func isSubscribed(to channel: String) -> Bool {
        state.withLock { state in
            state.connection != nil && state.channels.contains { $0.name.elementsEqual(channel.utf8) && $0.subscribed }
        }
    }

    /// Whether `channel`'s messages come as published now: subscribed, and Redis heard from
    /// within the lease.
    public func isListening(to channel: String) -> Bool {
        state.withLock { state in state.channels.contains { $0.name.elementsEqual(channel.utf8) && $0.told } }
    }

    /// Takes the messages that have arrived, without waiting for more: call before trusting
    /// what a message would have changed.
    public func catchUp() {
        let socket = listeningSocket.load(ordering: .acquiring)
        // The socket first: a message read off it since was marked as being taken before.
        guard socket >= 0, RedisConnection.hasInput(socket) || taking.load(ordering: .sequentiallyConsistent)
        else { return }
        if state.withLock({ takeArrived(&$0) }) { runReceivers() }
    }

    /// Ends the thread and waits for it; no listener hears anything after this.
    func stop() {
        loop.stop()
        state.withLock { drop(&$0) }
    }

    /// Connects, subscribes to every channel listened to, and takes messages until the
    /// connection fails.
    private func listen(on loop: RedisConnectionLoop) throws(RedisError) {
        let connection = try RedisConnection(endpoint, timeouts: timeouts)
        guard loop.attach(connection) else { return }
        let socket = connection.descriptor
        try state.withLock { (state) throws(RedisError) in
            let channels = state.channels.map(\.name)
            if !channels.isEmpty { try connection.send(.subscribe(channels)) }
            state.connection = connection
            state.heard = true
            state.lastHeard = .now
            state.lastPing = .now
            listeningSocket.store(socket, ordering: .releasing)
        }
        while true {
            // Woken by a message, by the heartbeat's time, or by `stop()` shutting the socket.
            _ = RedisConnection.hasInput(socket, waitingUpTo: heartbeat)
            guard !loop.isStopped else { throw .connectionLost("stopped") }
            let run = try state.withLock { (state) throws(RedisError) -> Bool in
                guard state.connection === connection else { throw .connectionLost("closed") }
                let run = takeArrived(&state)
                guard state.connection === connection else { throw .connectionLost("closed") }
                try keepAlive(&state, on: connection)
                return run
            }
            if run { runReceivers() }
        }
    }

    /// Sends the heartbeat when due, and stops listening once Redis is silent past the lease.
    private func keepAlive(_ state: inout State, on connection: RedisConnection) throws(RedisError) {
        let now = ContinuousClock.now
        if now - state.lastPing >= heartbeat {
            try connection.send(.ping)
            state.lastPing = now
        }
        state.heard = now - state.lastHeard < lease
        announce(&state)
    }

    /// Applies what has arrived and queues its `receive`s; a failed connection is dropped.
    /// True when the caller is to run the queue (no other thread is running it).
    private func takeArrived(_ state: inout State) -> Bool {
        guard let connection = state.connection else { return false }
        taking.store(true, ordering: .sequentiallyConsistent)
        defer { taking.store(false, ordering: .sequentiallyConsistent) }
        let replies: [RedisReply]
        do {
            replies = try connection.arrivedReplies()
        } catch {
            drop(&state)
            return false
        }
        guard !replies.isEmpty else { return false }
        state.lastHeard = .now
        state.heard = true
        for reply in replies { take(reply, &state) }
        announce(&state)
        guard !state.outbox.isEmpty, !state.delivering else { return false }
        state.delivering = true
        return true
    }

    /// A message goes to its channel's listeners, a confirmation marks its channel subscribed;
    /// a `PING`'s answer only shows Redis is there.
    private func take(_ reply: RedisReply, _ state: inout State) {
        guard case .array(let parts) = reply, parts.count == 3,
            let index = state.channels.firstIndex(where: { parts[1].isBulk($0.name) })
        else { return }
        if parts[0].isBulk("subscribe".utf8) {
            state.channels[index].subscribed = true
        } else if parts[0].isBulk("message".utf8), case .bulk(let message) = parts[2] {
            let listeners = state.channels[index].listeners.values
            for listener in listeners { listener.apply(message) }
            let receivers = listeners.compactMap(\.receive)
            if !receivers.isEmpty { state.outbox.append(Delivery(receivers: receivers, message: message)) }
        }
    }

    /// Runs the queued `receive`s, oldest first, outside the lock, until the queue is empty.
    private func runReceivers() {
        while true {
            let batch = state.withLock { state in
                defer { state.outbox = [] }
                if state.outbox.isEmpty { state.delivering = false }
                return state.outbox
            }
            if batch.isEmpty { return }
            for delivery in batch {
                for receive in delivery.receivers { receive(delivery.message) }
            }
        }
    }

    /// Tells each channel's listeners when whether they are listened to has changed.
    private func announce(_ state: inout State) {
        for index in state.channels.indices {
            let listened = state.connection != nil && state.heard && state.channels[index].subscribed
            guard listened != state.channels[index].told else { continue }
            state.channels[index].told = listened
            for listener in state.channels[index].listeners.values { listener.listening(listened) }
        }
    }

    /// Closes the connection (failed, or stopping): nothing is listened to until the loop has
    /// made another.
    private func drop(_ state: inout State) {
        state.connection?.interrupt()
        state.connection = nil
        listeningSocket.store(-1, ordering: .releasing)
        state.heard = false
        for index in state.channels.indices { state.channels[index].subscribed = false }
        announce(&state)
    }
}
