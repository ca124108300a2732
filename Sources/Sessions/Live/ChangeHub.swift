/// One notice on the hub: something under `topic` changed and is now at `version`.
///
/// The hub carries no state of its own: the session store is the truth. A subscriber that
/// hears a notice re-reads the store; one that missed notices (a dropped stream, a restart)
/// catches up by comparing the version it last showed with the store's.
public struct ChangeNotice: Sendable, Equatable {
    /// What changed, in a vocabulary the publisher and its subscribers share (a session, a
    /// follow code, an app file). Never sent to a browser as it is: a topic may name a session.
    public var topic: String
    public var version: UInt64

    public init(topic: String, version: UInt64) {
        self.topic = topic
        self.version = version
    }
}

/// A subscription's handle; cancel it with ``ChangeHub/unsubscribe(_:)``.
public struct ChangeSubscription: Hashable, Sendable {
    public let id: UInt64
    public init(id: UInt64) { self.id = id }
}

/// Carries change notices from whoever commits a change to every open page that shows it:
/// within one process (``LocalChangeHub``) or across instances (Redis pub/sub).
///
/// `publish` must not block on subscribers: a handler runs on whatever thread delivers the
/// notice and must only hand the notice on (wake a stream, enqueue work), never wait.
public protocol ChangeHub: AnyObject, Sendable {
    /// Sends `notice` to every subscriber of this hub, on every instance it connects.
    func publish(_ notice: ChangeNotice)
    /// Calls `receive` with every notice published from now on, until unsubscribed.
    func subscribe(_ receive: @escaping @Sendable (ChangeNotice) -> Void) -> ChangeSubscription
    func unsubscribe(_ subscription: ChangeSubscription)
}
