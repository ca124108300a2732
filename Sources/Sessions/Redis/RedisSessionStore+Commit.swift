import Foundation
import RedisClient

/// How to tell from what Redis holds whether a change whose answer never came was made.
struct ChangeCheck {
    /// The key the change writes.
    var key: [UInt8]
    /// What that key holds once the change is made.
    var made: Expectation
    /// What it holds while the change is not made; nil when that cannot be told (anything but
    /// `made` then leaves the outcome unknown).
    var notMade: Expectation?
}

extension RedisSessionStore {
    /// Runs a change script with the call `call` makes for its deadline, once a connection is
    /// at hand: true when it wrote, false when the key had changed.
    ///
    /// A script sent whose answer never came (the command timeout passed, or the connection
    /// broke) may have run: Redis can run it and then hang or die before answering. Then
    /// `unanswered` runs (the caller forgets what it holds of the key), and Redis is asked what
    /// the key holds once its clock is past the script's deadline, when the script can no
    /// longer write: the change made is a success, the change not made the plain error, and
    /// anything else (or no answer again) an error that says the outcome is unknown.
    func commit<Call>(
        _ script: LoadedRedisScript<Call>, checkedBy check: ChangeCheck, unanswered: () -> Void = {},
        _ call: (_ deadline: Int64) -> Call
    ) throws(SessionStoreError) -> Bool {
        var sentWith: Int64?
        let reply: RedisReply
        do {
            reply = try client.withConnection { (connection) throws(RedisError) in
                let deadline = self.deadline
                sentWith = deadline
                return try connection.evaluate(script, call(deadline))
            }
        } catch {
            let failure = SessionStoreError(
                "the Redis session store at \(endpoint) failed: \(error)", kind: error.storeErrorKind)
            guard let deadline = sentWith, error == .timedOut || error.isConnectionLost else { throw failure }
            unanswered()
            switch settle(check, deadline: deadline) {
            case .made: return true
            case .notMade: throw failure
            case .unknown:
                throw SessionStoreError(
                    "the Redis session store at \(endpoint) did not answer a change (\(error)), and could not tell "
                        + "afterwards whether it was made", kind: error.storeErrorKind, outcomeUnknown: true)
            }
        }
        switch reply {
        case .integer(1): return true
        case .integer(0): return false
        case .integer(-1):
            throw SessionStoreError(
                "Redis at \(endpoint) ran a change after its deadline (it was slow, or its clock is ahead of "
                    + "this machine's) and wrote nothing", kind: .timeout)
        case let other: throw SessionStoreError("Redis at \(endpoint): a change script answered \(other)")
        }
    }

    /// The deadline a change script is sent with (`RedisScripts`), in milliseconds since 1970:
    /// a quarter of the command timeout before this instance stops waiting for the answer, so
    /// that Redis's clock may be that far behind this machine's (NTP keeps them milliseconds
    /// apart) and a change still never lands after its sender gave up on it.
    private var deadline: Int64 {
        let allowance = client.timeouts.command * 3 / 4
        return Int64((Date().timeIntervalSince1970 * 1000 + allowance / .milliseconds(1)).rounded(.down))
    }

    private enum Settled {
        case made, notMade, unknown
    }

    /// What became of a change sent with `deadline`, from what Redis holds at `check.key` once
    /// Redis's clock is past the deadline (a few tries, waiting for the clock when it is not).
    private func settle(_ check: ChangeCheck, deadline: Int64) -> Settled {
        for _ in 0..<3 {
            guard let held = try? holding(check.key) else { return .unknown }
            if check.made.isHeld(by: held.value) { return .made }
            guard held.clock > deadline else {
                usleep(UInt32(min(1_000, deadline - held.clock + 2)) * 1_000)
                continue
            }
            return check.notMade?.isHeld(by: held.value) == true ? .notMade : .unknown
        }
        return .unknown
    }

    /// Redis's clock (milliseconds since 1970) and the value of `key`, in one round trip.
    private func holding(_ key: [UInt8]) throws(RedisError) -> (clock: Int64, value: [UInt8]?) {
        let replies = try client.pipeline([.time, .get(key)])
        guard case .array(let parts) = replies.first, parts.count == 2,
            case .bulk(let seconds) = parts[0], case .bulk(let microseconds) = parts[1],
            let wholeSeconds = Int64(String(decoding: seconds, as: UTF8.self)),
            let micros = Int64(String(decoding: microseconds, as: UTF8.self))
        else { throw .unexpectedReply("TIME answered \(String(describing: replies.first))") }
        switch replies.last {
        case .bulk(let value): return (wholeSeconds * 1000 + micros / 1000, value)
        case .null: return (wholeSeconds * 1000 + micros / 1000, nil)
        case let other: throw .unexpectedReply("GET answered \(String(describing: other))")
        }
    }
}

extension RedisError {
    fileprivate var isConnectionLost: Bool {
        if case .connectionLost = self { return true }
        return false
    }
}

extension Expectation {
    /// Whether a key holding `value` (nil: no key) meets this expectation.
    func isHeld(by value: [UInt8]?) -> Bool {
        switch self {
        case .stamp(let stamp): value.map { StampedValue.stamp(of: $0) == stamp } ?? false
        case .equal(let expected): value == expected
        case .absent: value == nil
        case .any: true
        }
    }
}
