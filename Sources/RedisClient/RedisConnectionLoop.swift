import Dispatch
import Foundation
import Synchronization

/// A thread that keeps one Redis connection at work until stopped, for the connection that
/// listens (`RedisSubscription`).
///
/// `work` connects, hands its connection to `attach`, and serves until the connection fails;
/// the loop then calls `lost`, waits (50 ms, doubling up to a second, cut short by `stop()`)
/// and calls `work` again. One line is logged per outage, not per attempt. `stop()` shuts the
/// attached connection, which wakes a read blocked on it, and waits for the thread to end.
final class RedisConnectionLoop: Sendable {
    typealias Work = @Sendable (RedisConnectionLoop) throws(RedisError) -> Void

    /// What the log line calls the connection ("the Redis subscription").
    let role: String
    let endpoint: RedisEndpoint
    private let log: @Sendable (String) -> Void

    private struct State {
        var started = false
        var stopped = false
        var connection: RedisConnection?
        var delay = 0.05
        var reportedOutage = false
    }

    private let state = Mutex(State())
    /// Signalled to cut a wait short, and by the loop when it has ended.
    private let wake = DispatchSemaphore(value: 0)
    private let ended = DispatchSemaphore(value: 0)

    init(role: String, endpoint: RedisEndpoint, log: @escaping @Sendable (String) -> Void) {
        self.role = role
        self.endpoint = endpoint
        self.log = log
    }

    /// Starts the thread, named `name`.
    func start(name: String, work: @escaping Work, lost: @escaping @Sendable () -> Void) {
        state.withLock { $0.started = true }
        let thread = Thread { [self] in run(work, lost: lost) }
        thread.name = name
        thread.start()
    }

    var isStopped: Bool { state.withLock { $0.stopped } }

    /// Makes `connection` the one `stop()` shuts, and counts the outage as over; false once the
    /// loop is stopped (`work` should then return).
    func attach(_ connection: RedisConnection) -> Bool {
        state.withLock { state in
            guard !state.stopped else { return false }
            state.connection = connection
            state.delay = 0.05
            state.reportedOutage = false
            return true
        }
    }

    /// Waits up to `duration`; `stop()` cuts it short.
    private func pause(_ duration: Duration) {
        _ = wake.wait(timeout: .now() + .nanoseconds(Int(duration / .nanoseconds(1))))
    }

    /// Ends the loop and waits for its thread, if it was started.
    func stop() {
        let running = state.withLock { state -> Bool in
            defer { state.stopped = true }
            state.connection?.interrupt()
            return state.started && !state.stopped
        }
        guard running else { return }
        wake.signal()
        ended.wait()
    }

    private func run(_ work: Work, lost: @Sendable () -> Void) {
        defer { ended.signal() }
        while !isStopped {
            do {
                try work(self)
            } catch {
                lost()
                let wait = state.withLock { state -> Double? in
                    state.connection = nil
                    guard !state.stopped else { return nil }
                    if !state.reportedOutage {
                        log("tabstage: \(role) lost Redis at \(endpoint) (\(error)); reconnecting")
                        state.reportedOutage = true
                    }
                    defer { state.delay = min(1, state.delay * 2) }
                    return state.delay
                }
                guard let wait else { break }
                pause(.milliseconds(Int(wait * 1000)))
            }
        }
    }
}
