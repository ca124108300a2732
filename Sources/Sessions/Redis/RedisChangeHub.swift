import Dispatch
import Foundation
import RedisClient
import Synchronization

/// Change notices across every instance on one Redis: `publish` is a `PUBLISH` on
/// `<prefix>changes`, and one subscriber connection per process, on a thread of its own,
/// hands each message to this process's subscribers (the notices this instance published
/// come back that way too, so every subscriber hears each notice once).
///
/// Pub/sub keeps nothing: a notice published while the subscriber is reconnecting (Redis
/// restarted, the connection dropped) is not delivered. That is the hub's contract: the store
/// is the truth, and a subscriber catches up by comparing versions. A publish that fails is
/// logged and dropped; it never throws into the request that committed the change, nor makes
/// it wait: notices are sent in order from a queue of their own.
public final class RedisChangeHub: ChangeHub {
    public let endpoint: RedisEndpoint
    /// The pub/sub channel, `<prefix>changes`.
    public let channel: String
    private let publisher: Publisher
    private let receivers = LocalChangeHub()
    private let subscriber: Subscriber

    /// Starts the subscriber thread at once; it connects (and reconnects) by itself.
    public init(
        endpoint: RedisEndpoint, keyPrefix: String = "tabstage:", timeouts: RedisTimeouts = RedisTimeouts(),
        log: @escaping @Sendable (String) -> Void = { _ in }
    ) {
        self.endpoint = endpoint
        channel = keyPrefix + "changes"
        publisher = Publisher(
            pool: RedisConnectionPool(endpoint: endpoint, timeouts: timeouts, idleLimit: 2), channel: channel, log: log)
        subscriber = Subscriber(
            endpoint: endpoint, channel: channel, timeouts: timeouts, receivers: receivers, log: log)
        subscriber.start()
    }

    deinit { close() }

    public func publish(_ notice: ChangeNotice) { publisher.publish(notice) }

    public func subscribe(_ receive: @escaping @Sendable (ChangeNotice) -> Void) -> ChangeSubscription {
        receivers.subscribe(receive)
    }

    public func unsubscribe(_ subscription: ChangeSubscription) { receivers.unsubscribe(subscription) }

    /// Whether the subscriber connection is subscribed now: notices published from then on reach
    /// this process's subscribers.
    public var isSubscribed: Bool { subscriber.isSubscribed }

    /// Stops the subscriber thread and waits for it; later notices are not delivered.
    public func close() {
        publisher.flush()
        subscriber.stop()
    }

    /// A message's payload for `notice`: `<version> <topic>`.
    static func payload(of notice: ChangeNotice) -> [UInt8] { Array("\(notice.version) \(notice.topic)".utf8) }

    /// The notice in a message's payload, `<version> <topic>`.
    static func notice(from payload: [UInt8]) -> ChangeNotice? {
        guard let space = payload.firstIndex(of: UInt8(ascii: " ")),
            let version = UInt64(String(decoding: payload[..<space], as: UTF8.self))
        else { return nil }
        return ChangeNotice(topic: String(decoding: payload[(space + 1)...], as: UTF8.self), version: version)
    }
}

/// Sends notices in the order they were published, from a queue of its own: a request never
/// waits for its notice. The notices published while a batch is on its way go together in the
/// next one, one round trip for all. Apart from the hub, so the queue never holds the hub.
private final class Publisher: Sendable {
    let pool: RedisConnectionPool
    let channel: String
    let log: @Sendable (String) -> Void
    private let sending = DispatchQueue(label: "tabstage-redis-publisher")

    private struct Waiting {
        var notices: [ChangeNotice] = []
        /// Whether the queue has a batch to send or on its way; a notice then joins the next.
        var sending = false
    }

    private let waiting = Mutex(Waiting())

    init(pool: RedisConnectionPool, channel: String, log: @escaping @Sendable (String) -> Void) {
        self.pool = pool
        self.channel = channel
        self.log = log
    }

    func publish(_ notice: ChangeNotice) {
        let start = waiting.withLock { waiting -> Bool in
            waiting.notices.append(notice)
            defer { waiting.sending = true }
            return !waiting.sending
        }
        if start { sending.async { [self] in sendWaiting() } }
    }

    private func sendWaiting() {
        while true {
            let batch = waiting.withLock { waiting -> [ChangeNotice] in
                defer { waiting.notices = [] }
                if waiting.notices.isEmpty { waiting.sending = false }
                return waiting.notices
            }
            if batch.isEmpty { return }
            send(batch)
        }
    }

    /// Waits for the notices queued so far to be sent (or given up), then closes the connections.
    func flush() {
        sending.sync {}
        pool.drain()
    }

    private func send(_ batch: [ChangeNotice]) {
        let commands = batch.map { notice in RedisCommand.publish(channel.utf8, RedisChangeHub.payload(of: notice)) }
        do {
            let replies = try pool.withConnection { (connection) throws(RedisError) in
                try connection.pipeline(commands)
            }
            for case .error(let message) in replies { log("tabstage: Redis refused a change notice: \(message)") }
        } catch {
            log("tabstage: \(batch.count) change notices were not published to Redis at \(pool.endpoint): \(error)")
        }
    }
}

/// The subscriber connection, kept going by a `RedisConnectionLoop`: subscribe, and hand each
/// message to this process's subscribers until the connection fails.
private final class Subscriber: Sendable {
    let endpoint: RedisEndpoint
    let channel: String
    let timeouts: RedisTimeouts
    let receivers: LocalChangeHub
    private let loop: RedisConnectionLoop
    private let subscribed = Atomic<Bool>(false)

    init(
        endpoint: RedisEndpoint, channel: String, timeouts: RedisTimeouts, receivers: LocalChangeHub,
        log: @escaping @Sendable (String) -> Void
    ) {
        self.endpoint = endpoint
        self.channel = channel
        self.timeouts = timeouts
        self.receivers = receivers
        loop = RedisConnectionLoop(role: "the change subscriber", endpoint: endpoint, log: log)
    }

    var isSubscribed: Bool { subscribed.load(ordering: .acquiring) }

    func start() {
        loop.start(
            name: "tabstage-redis-subscriber", work: { [self] loop throws(RedisError) in try listen(on: loop) },
            lost: { [self] in subscribed.store(false, ordering: .releasing) })
    }

    /// Connects, subscribes, and delivers messages until the connection fails or is interrupted.
    private func listen(on loop: RedisConnectionLoop) throws(RedisError) {
        // No command timeout: the subscriber waits for messages as long as none come.
        let connection = try RedisConnection(endpoint, timeouts: timeouts, commandTimeout: false)
        guard loop.attach(connection) else { return }
        let reply = try connection.run(.subscribe([Array(channel.utf8)]))
        guard case .array(let parts) = reply, parts.first?.isBulk("subscribe".utf8) == true else {
            throw .unexpectedReply("SUBSCRIBE answered \(reply)")
        }
        subscribed.store(true, ordering: .releasing)
        while true {
            let message = try connection.readReply()
            guard case .array(let parts) = message, parts.count == 3, parts[0].isBulk("message".utf8),
                case .bulk(let payload) = parts[2], let notice = RedisChangeHub.notice(from: payload)
            else { continue }
            receivers.publish(notice)
        }
    }

    /// Ends the loop and waits for its thread.
    func stop() {
        loop.stop()
        subscribed.store(false, ordering: .releasing)
    }
}
