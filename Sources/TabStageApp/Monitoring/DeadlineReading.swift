import Dispatch
import Synchronization

/// A level read at scrape time from something that may be slow or down (the session store):
/// the scrape waits for it at most `deadline`, and a reading still on its way counts as
/// unknown, as does a second scrape while the first reading is out (never two at once, so a
/// hung store does not gather waiting readers).
final class DeadlineReading: Sendable {
    private let read: @Sendable () -> Int?
    private let deadline: DispatchTimeInterval
    private let inFlight = Atomic<Bool>(false)

    init(deadline: DispatchTimeInterval, _ read: @escaping @Sendable () -> Int?) {
        self.read = read
        self.deadline = deadline
    }

    /// The level, or nil when it could not be read in time.
    func value() -> Int? {
        guard inFlight.compareExchange(expected: false, desired: true, ordering: .acquiring).exchanged else {
            return nil
        }
        let result = Mutex<Int?>(nil)
        let done = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            let level = self.read()
            result.withLock { $0 = level }
            self.inFlight.store(false, ordering: .releasing)
            done.signal()
        }
        guard done.wait(timeout: .now() + deadline) == .success else { return nil }
        return result.withLock { $0 }
    }
}
