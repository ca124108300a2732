import RedisClient

/// The Lua scripts behind `RedisSessionStore`: Redis runs each as one step, nothing between
/// its commands. Every one is a change, and starts with `inTime`.
///
/// Each script names its keys and arguments in a `local` line at its top, in the order its
/// call (`CompareAndSet`, `Move`, `SetAlias`) sends them: the two lists are kept side by side.
enum RedisScripts {
    /// The check every script starts with: `deadline` is the change's, in milliseconds since
    /// 1970, and a script Redis runs later returns -1 and writes nothing. A Redis that hangs
    /// runs what it was sent once it goes on; by then the sender has given up and answered that
    /// nothing changed, so nothing may.
    private static let inTime = """
        local clock = redis.call('TIME')
        if tonumber(clock[1]) * 1000 + tonumber(clock[2]) / 1000 > tonumber(deadline) then return -1 end
        """

    /// The check the session scripts make next: whether the key `checked` still holds what the
    /// change started from, told by `check` and `expected` (`Expectation`).
    private static let stillHolds = """
        \(inTime)
        local found = true
        if check == 'stamp' then
          found = redis.call('GETRANGE', checked, 0, 16) == expected
        elseif check == 'equal' then
          found = redis.call('GET', checked) == expected
        elseif check == 'absent' then
          found = redis.call('EXISTS', checked) == 0
        end
        if not found then return 0 end
        """

    /// Writes or removes a session once it still holds what the change started from, then
    /// publishes `message` on `channel`. Returns 1 when it wrote, 0 when the key had changed.
    static let compareAndSet = RedisScript<CompareAndSet>(
        """
        local checked = KEYS[1]
        local deadline, check, expected, action, value, ttl, channel, message = unpack(ARGV)
        \(stillHolds)
        if action == 'set' then
          redis.call('SET', checked, value, 'PX', ttl)
        else
          redis.call('DEL', checked)
        end
        redis.call('PUBLISH', channel, message)
        return 1
        """, publishes: true)

    /// Writes the new id's session, then deletes the old id's (when it is another key), once the
    /// old one still holds what the move started from, then publishes `message` on `channel`.
    /// Returns 1 when it wrote, 0 when the old key had changed.
    static let move = RedisScript<Move>(
        """
        local checked, target = KEYS[1], KEYS[2]
        local deadline, check, expected, value, ttl, channel, message = unpack(ARGV)
        \(stillHolds)
        redis.call('SET', target, value, 'PX', ttl)
        if checked ~= target then redis.call('DEL', checked) end
        redis.call('PUBLISH', channel, message)
        return 1
        """, publishes: true)

    /// Points an alias at a session id, or removes it (`session` empty). Returns 1.
    static let setAlias = RedisScript<SetAlias>(
        """
        local alias = KEYS[1]
        local deadline, session, ttl = unpack(ARGV)
        \(inTime)
        if session == '' then
          redis.call('DEL', alias)
        else
          redis.call('SET', alias, session, 'PX', ttl)
        end
        return 1
        """)
}

/// What a change's key must still hold for the change to be written (`stillHolds`).
enum Expectation {
    /// The value with this stamp (`StampedValue`): Redis compares 17 bytes.
    case stamp(ArraySlice<UInt8>)
    /// Exactly this value, one written before stamps.
    case equal([UInt8])
    /// No value at all.
    case absent
    /// Whatever it holds: a move without an old id has nothing to compare.
    case any

    /// The expectation of a change that started from `stored` (nil: no key).
    init(startingFrom stored: [UInt8]?) {
        guard let stored else {
            self = .absent
            return
        }
        self = StampedValue.stamp(of: stored).map { .stamp($0) } ?? .equal(stored)
    }

    /// `check`, then `expected`.
    var arguments: [[UInt8]] {
        switch self {
        case .stamp(let stamp): [Array("stamp".utf8), Array(stamp)]
        case .equal(let value): [Array("equal".utf8), value]
        case .absent: [Array("absent".utf8), []]
        case .any: [Array("any".utf8), []]
        }
    }
}

/// One run of `RedisScripts.compareAndSet`.
struct CompareAndSet: RedisScriptCall {
    var session: [UInt8]
    /// Milliseconds since 1970 (`inTime`).
    var deadline: Int64
    var expected: Expectation
    /// The value to write; nil removes the session.
    var value: [UInt8]?
    var ttlMilliseconds: Int
    /// Published once written, in the same step.
    var announcement: Publication

    var keys: [[UInt8]] { [session] }

    var arguments: [[UInt8]] {
        [decimal(deadline)] + expected.arguments
            + [Array((value == nil ? "delete" : "set").utf8), value ?? [], decimal(ttlMilliseconds)]
            + [announcement.channel, announcement.message]
    }
}

/// A message for a channel, sent by a script once its change is written.
struct Publication {
    var channel: [UInt8]
    var message: [UInt8]
}

/// One run of `RedisScripts.move`.
struct Move: RedisScriptCall {
    /// The old id's session (the new one's too when there is no old id).
    var from: [UInt8]
    var to: [UInt8]
    /// Milliseconds since 1970 (`inTime`).
    var deadline: Int64
    var expected: Expectation
    var value: [UInt8]
    var ttlMilliseconds: Int
    /// Published once written, in the same step.
    var announcement: Publication

    var keys: [[UInt8]] { [from, to] }

    var arguments: [[UInt8]] {
        [decimal(deadline)] + expected.arguments
            + [value, decimal(ttlMilliseconds), announcement.channel, announcement.message]
    }
}

/// One run of `RedisScripts.setAlias`.
struct SetAlias: RedisScriptCall {
    var alias: [UInt8]
    /// Milliseconds since 1970 (`inTime`).
    var deadline: Int64
    /// The session the alias names; nil removes it.
    var session: SessionID?
    var ttlMilliseconds: Int

    var keys: [[UInt8]] { [alias] }

    var arguments: [[UInt8]] {
        [decimal(deadline), session.map { Array($0.description.utf8) } ?? [], decimal(ttlMilliseconds)]
    }
}

private func decimal(_ number: some BinaryInteger) -> [UInt8] { Array(String(number).utf8) }
