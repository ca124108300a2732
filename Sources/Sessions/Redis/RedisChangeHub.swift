import Dispatch
import RedisClient
import Synchronization

/// Change notices across every instance on one Redis: `publish` is a `PUBLISH` on
/// `<prefix>changes`, and the client's one subscription per process hands each message that
/// carries a notice to this process's subscribers (the notices this instance published come
/// back that way too, so every subscriber hears each notice once). A session store on the same
/// client reads that channel too: a change's message tells its cache and the live pages at once
/// (`RedisChangeMessage`).
///
/// Pub/sub keeps nothing: a notice published while the subscription is reconnecting (Redis
/// restarted, the connection dropped) is not delivered. That is the hub's contract: the store
/// is the truth, and a subscriber catches up by comparing versions. A publish that fails is
/// logged and dropped; it never throws into the request that committed the change, nor makes
/// it wait: notices are sent in order from a queue of their own.
public final class RedisChangeHub: ChangeHub {
    public let client: RedisClient
    public var endpoint: RedisEndpoint { client.endpoint }
    /// The pub/sub channel, `<prefix>changes`.
    public let channel: String
    private let publisher: Publisher
    private let receivers: LocalChangeHub
    private let listening: RedisSubscription.Token
    /// Whether the hub made its client, and closes it.
    private let ownsClient: Bool

    /// A hub on `client`, whose subscription it listens on from now on.
    public convenience init(client: RedisClient, keyPrefix: String = RedisSettings.defaultKeyPrefix) {
        self.init(client: client, keyPrefix: keyPrefix, ownsClient: false)
    }

    /// A hub with a client of its own, for a process that uses this Redis for nothing else.
    public convenience init(
        endpoint: RedisEndpoint, keyPrefix: String = RedisSettings.defaultKeyPrefix,
        timeouts: RedisTimeouts = RedisTimeouts(), log: @escaping @Sendable (String) -> Void = { _ in }
    ) {
        let client = RedisClient(endpoint: endpoint, timeouts: timeouts, idleConnections: 2, log: log)
        self.init(client: client, keyPrefix: keyPrefix, ownsClient: true, log: log)
    }

    private init(
        client: RedisClient, keyPrefix: String, ownsClient: Bool, log: @escaping @Sendable (String) -> Void = { _ in }
    ) {
        self.client = client
        self.ownsClient = ownsClient
        channel = keyPrefix + "changes"
        publisher = Publisher(client: client, channel: channel, log: log)
        let receivers = LocalChangeHub()
        self.receivers = receivers
        listening = client.subscription.listen(
            to: channel,
            .init(receive: { message in
                if let notice = RedisChangeMessage(payload: message)?.notice { receivers.publish(notice) }
            }))
    }

    deinit { close() }

    public func publish(_ notice: ChangeNotice) { publisher.publish(notice) }

    public func subscribe(_ receive: @escaping @Sendable (ChangeNotice) -> Void) -> ChangeSubscription {
        receivers.subscribe(receive)
    }

    public func unsubscribe(_ subscription: ChangeSubscription) { receivers.unsubscribe(subscription) }

    /// Whether the client's subscription is subscribed to the channel now: notices published
    /// from then on reach this process's subscribers.
    public var isSubscribed: Bool { client.subscription.isSubscribed(to: channel) }

    /// Sends the notices queued so far and stops listening; later notices are not delivered.
    /// Closes the client when the hub made it.
    public func close() {
        publisher.flush()
        client.subscription.stopListening(listening)
        if ownsClient { client.close() }
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
    let client: RedisClient
    let channel: String
    let log: @Sendable (String) -> Void
    private let sending = DispatchQueue(label: "tabstage-redis-publisher")

    private struct Waiting {
        var notices: [ChangeNotice] = []
        /// Whether the queue has a batch to send or on its way; a notice then joins the next.
        var sending = false
    }

    private let waiting = Mutex(Waiting())

    init(client: RedisClient, channel: String, log: @escaping @Sendable (String) -> Void) {
        self.client = client
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

    /// Waits for the notices queued so far to be sent (or given up).
    func flush() { sending.sync {} }

    private func send(_ batch: [ChangeNotice]) {
        let commands = batch.map { notice in
            RedisCommand.publish(channel.utf8, RedisChangeMessage(sessions: [], notice: notice).payload)
        }
        do {
            let replies = try client.pipeline(commands)
            for case .error(let message) in replies { log("tabstage: Redis refused a change notice: \(message)") }
        } catch {
            log("tabstage: \(batch.count) change notices were not published to Redis at \(client.endpoint): \(error)")
        }
    }
}
