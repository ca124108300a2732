import Foundation
import RedisClient
import ServiceTesting
import Synchronization
import Testing

@testable import Sessions

private func id(_ number: Int) -> SessionID { SessionID(high: 0xcac4e, low: UInt64(number)) }
private func now() -> Double { Date().timeIntervalSince1970 }

/// Two instances' stores on one Redis, each with its cache, listening before the test goes on.
private final class TwoInstances {
    let redis: RedisServer
    let first: RedisSessionStore<Int>
    let second: RedisSessionStore<Int>

    init() throws {
        redis = try RedisServer()
        let endpoint = try RedisEndpoint.parse(redis.url)
        first = try RedisSessionStore<Int>.open(endpoint: endpoint)
        second = try RedisSessionStore<Int>.open(endpoint: endpoint)
        try Self.waitUntil { self.first.isCaching && self.second.isCaching }
    }

    deinit {
        first.close()
        second.close()
    }

    static func waitUntil(seconds: Double = 10, _ condition: () throws -> Bool) throws {
        let deadline = Date().addingTimeInterval(seconds)
        while try !condition() {
            guard Date() < deadline else { throw ServiceError("not within \(seconds) s") }
            usleep(10_000)
        }
    }
}

/// The Redis store's cache of decoded sessions: what it saves (round trips) and what it must
/// never do (answer a read with a state Redis no longer holds).
@Suite(.serialized) struct RedisSessionCacheTests {
    /// Once read, a session is read again from the cache: Redis is sent no read (a read is a
    /// `GET` with a `PTTL`; the `PTTL`s are counted, since the change scripts run `GET`s too).
    @Test func aSessionReadOnceIsReadAgainWithoutAskingRedis() throws {
        let fixture = try TwoInstances()
        try fixture.first.modify(id(1), now: now()) { $0 = 7 }
        // The first reads fetch it; one more may, when Redis's notice of the write above comes
        // after the first fetch was sent. Then the reads stop reaching Redis.
        var reads = try fixture.redis.calls(of: "pttl")
        for _ in 0..<5 {
            #expect(try fixture.second.state(of: id(1), now: now()) == 7)
            let sent = try fixture.redis.calls(of: "pttl")
            if sent == reads { break }
            reads = sent
        }
        for _ in 0..<20 { #expect(try fixture.second.state(of: id(1), now: now()) == 7) }
        #expect(try fixture.redis.calls(of: "pttl") == reads, "20 reads, none sent to Redis")
    }

    /// A change starts from the state this instance wrote last: one compare-and-set, no read first.
    @Test func aChangeOnACachedSessionIsOneCompareAndSet() throws {
        let fixture = try TwoInstances()
        try fixture.first.modify(id(2), now: now()) { $0 = 0 }
        let reads = try fixture.redis.calls(of: "pttl")
        let scripts = try fixture.redis.calls(of: "evalsha")
        for _ in 0..<20 { try fixture.first.modify(id(2), now: now()) { $0? += 1 } }
        // A notice of an earlier write that comes late looks like another instance's write, and
        // the change after it reads first: allow one such read in twenty.
        #expect(try fixture.redis.calls(of: "pttl") <= reads + 1, "no read before a change")
        #expect(try fixture.redis.calls(of: "evalsha") == scripts + 20)
        #expect(try fixture.second.state(of: id(2), now: now()) == 20)
    }

    /// One instance changes a session the other holds fresh in its cache (it read it since its
    /// last change), and the other reads it at once: every read shows the change just made.
    /// The two swap roles every ten changes.
    @Test func aChangeOnOneInstanceIsReadAtOnceOnTheOther() throws {
        let fixture = try TwoInstances()
        try fixture.first.modify(id(3), now: now()) { $0 = 0 }
        let stores = [fixture.first, fixture.second]
        var stale = 0
        for step in 1...300 {
            let writer = stores[(step / 10) % 2]
            let reader = stores[(step / 10 + 1) % 2]
            try writer.modify(id(3), now: now()) { $0? += 1 }
            for _ in 0..<2 where try reader.state(of: id(3), now: now()) != step { stale += 1 }
        }
        #expect(stale == 0, "reads that missed the change just made")
    }

    /// A Redis that hangs (stopped, its connections open) cannot take a change; within about
    /// a second a cached session is not read from the cache either: the read fails, as it
    /// would without a cache, and once Redis goes on, reads are served again.
    @Test func whileRedisHangsACachedReadFailsToo() throws {
        let fixture = try TwoInstances()
        try fixture.first.modify(id(4), now: now()) { $0 = 4 }
        #expect(try fixture.first.state(of: id(4), now: now()) == 4)
        #expect(try fixture.first.state(of: id(4), now: now()) == 4)
        fixture.redis.pause()
        defer { fixture.redis.resume() }
        let paused = Date()
        var failed = false
        while !failed && Date().timeIntervalSince(paused) < 10 {
            failed = (try? fixture.first.state(of: id(4), now: now())) == nil
            if !failed { usleep(20_000) }
        }
        #expect(failed, "a read failed while Redis hung")
        fixture.redis.resume()
        try TwoInstances.waitUntil { (try? fixture.first.state(of: id(4), now: now())) == 4 }
    }
}

/// Values as Redis holds them: a stamp before the JSON, and values from before stamps.
@Suite struct StampedValueTests {
    /// A session written before values had stamps (its JSON alone) is read, and a change to it
    /// is compared against the whole value and written with a stamp.
    @Test func aValueFromBeforeStampsIsReadAndChanged() throws {
        let fixture = try TwoInstances()
        let key = "tabstage:session:\(id(5))"
        let planted = try RedisConnection(try RedisEndpoint.parse(fixture.redis.url), timeouts: RedisTimeouts())
        _ = try planted.run(.set(key.utf8, "41".utf8, expiringAfterMilliseconds: 60000))
        #expect(try fixture.first.state(of: id(5), now: now()) == 41)
        try fixture.first.modify(id(5), now: now()) { $0? += 1 }
        guard case .bulk(let stored) = try planted.run(.get(key.utf8)) else {
            Issue.record("no value")
            return
        }
        #expect(stored.first == UInt8(ascii: "#") && stored.count == StampedValue.stampLength + 2)
        #expect(String(decoding: stored.dropFirst(StampedValue.stampLength), as: UTF8.self) == "42")
        #expect(try fixture.second.state(of: id(5), now: now()) == 42)
    }

    /// Each write gets a stamp of its own, even of an equal state: a change compares stamps,
    /// so a value rewritten with the same content in between still fails the comparison.
    @Test func everyWriteHasItsOwnStamp() {
        let stamps = Set((0..<100).map { _ in StampedValue.stamp(of: StampedValue.make(json: Array("7".utf8))) })
        #expect(stamps.count == 100)
        #expect(StampedValue.stamp(of: Array("{\"a\":1}".utf8)) == nil, "JSON alone has no stamp")
    }
}

/// A change's notice and the change itself, on one Redis.
@Suite struct RedisChangeWithNoticeTests {
    /// Through a hub on the store's own Redis, the notice is published by the change's script
    /// (one round trip for both; `MONITOR` shows the `PUBLISH` run by Lua, none sent by a
    /// client), and it reaches the hub's subscribers.
    @Test func aChangeAndItsNoticeAreOneStep() throws {
        let redis = try RedisServer()
        let endpoint = try RedisEndpoint.parse(redis.url)
        let store = try RedisSessionStore<Int>.open(endpoint: endpoint)
        let hub = RedisChangeHub(endpoint: endpoint)
        defer {
            hub.close()
            store.close()
        }
        let heard = Mutex<[ChangeNotice]>([])
        let subscription = hub.subscribe { notice in heard.withLock { $0.append(notice) } }
        defer { hub.unsubscribe(subscription) }
        try TwoInstances.waitUntil { hub.isSubscribed }
        let monitor = try RedisConnection(endpoint, timeouts: RedisTimeouts())
        #expect(try monitor.run(.monitor) == .status("OK"))
        let notice = ChangeNotice(topic: "session:test", version: 1)
        try store.modify(id(6), now: now(), announcingThrough: hub) { state in
            state = 1
            return Announced((), notice: notice)
        }
        try TwoInstances.waitUntil { heard.withLock { $0 } == [notice] }
        var publishes: [String] = []
        while publishes.isEmpty, case .status(let line) = try monitor.readReply() {
            if line.contains("\"PUBLISH\"") || line.contains("\"publish\"") { publishes.append(line) }
        }
        #expect(publishes.count == 1)
        #expect(publishes.allSatisfy { $0.contains("[0 lua]") }, "\(publishes)")
    }
}

extension RedisChangeWithNoticeTests {
    /// A store and a hub handed one client, as `serve` hands them: Redis is asked to subscribe
    /// once, for both. Another instance's change, its notice in its script, reaches this process
    /// as one message, which both drops the cached copy (the next read shows the change) and
    /// reaches the hub's subscribers, once.
    @Test func aStoreAndAHubOnOneClientHearAChangeOnceOverOneSubscription() throws {
        let redis = try RedisServer()
        let endpoint = try RedisEndpoint.parse(redis.url)
        let client = RedisClient(endpoint: endpoint)
        let store = try RedisSessionStore<Int>.open(client: client)
        let hub = RedisChangeHub(client: client)
        let other = try RedisSessionStore<Int>.open(endpoint: endpoint, cachedSessions: 0)
        defer {
            other.close()
            hub.close()
            store.close()
            client.close()
        }
        let heard = Mutex<[ChangeNotice]>([])
        _ = hub.subscribe { notice in heard.withLock { $0.append(notice) } }
        try TwoInstances.waitUntil { hub.isSubscribed && store.isCaching }
        #expect(try redis.calls(of: "subscribe") == 1, "one subscription for the store and the hub")

        try store.modify(id(8), now: now()) { $0 = 1 }
        try TwoInstances.waitUntil { try store.state(of: id(8), now: now()) == 1 }
        let notice = ChangeNotice(topic: "session:8", version: 2)
        try other.modify(id(8), now: now(), announcingThrough: hub) { state in
            state = 2
            return Announced((), notice: notice)
        }
        #expect(try store.state(of: id(8), now: now()) == 2, "the cached copy was dropped")
        try TwoInstances.waitUntil { heard.withLock { $0 } == [notice] }
        usleep(100_000)
        #expect(heard.withLock { $0 } == [notice], "heard once")
    }
}

extension RedisSessionCacheTests {
    /// A session the other instance changed since this one wrote it is read before a change,
    /// not guessed: one read and one compare-and-set, where a guess would cost a failed
    /// compare-and-set, a read and another.
    @Test func aChangeAfterAnotherInstancesChangeReadsFirst() throws {
        let fixture = try TwoInstances()
        try fixture.first.modify(id(7), now: now()) { $0 = 0 }
        try fixture.second.modify(id(7), now: now()) { $0? += 1 }
        // The second instance's notice reaches the first (its read takes the notices in).
        try TwoInstances.waitUntil { try fixture.first.state(of: id(7), now: now()) == 1 }
        try fixture.second.modify(id(7), now: now()) { $0? += 1 }
        try TwoInstances.waitUntil { (try fixture.second.state(of: id(7), now: now())) == 2 }
        usleep(100_000)
        let scripts = try fixture.redis.calls(of: "evalsha")
        try fixture.first.modify(id(7), now: now()) { $0? += 1 }
        #expect(try fixture.redis.calls(of: "evalsha") == scripts + 1, "one compare-and-set, no failed guess")
        #expect(try fixture.second.state(of: id(7), now: now()) == 3)
    }
}
