import Synchronization

/// The hub of a single process: `publish` calls each subscriber in turn, on the publishing thread.
public final class LocalChangeHub: ChangeHub {
    private struct State {
        var nextID: UInt64 = 0
        var receivers: [UInt64: @Sendable (ChangeNotice) -> Void] = [:]
    }

    private let state = Mutex(State())

    public init() {}

    public func publish(_ notice: ChangeNotice) {
        // Handlers run outside the lock, so one may subscribe or unsubscribe.
        let receivers = state.withLock { Array($0.receivers.values) }
        for receive in receivers { receive(notice) }
    }

    public func subscribe(_ receive: @escaping @Sendable (ChangeNotice) -> Void) -> ChangeSubscription {
        state.withLock { state in
            state.nextID += 1
            state.receivers[state.nextID] = receive
            return ChangeSubscription(id: state.nextID)
        }
    }

    public func unsubscribe(_ subscription: ChangeSubscription) {
        _ = state.withLock { $0.receivers.removeValue(forKey: subscription.id) }
    }
}
