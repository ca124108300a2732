import Foundation
import RedisClient
import ServiceTesting
import Synchronization
import Testing

@testable import Sessions

@Suite struct RedisChangeHubTests {
    /// Two hubs on one Redis, as two instances have: a notice published on either reaches the
    /// subscribers of both, once each, and both hear them in one order (the channel's).
    @Test func aNoticeReachesTheSubscribersOfEveryHubOnTheSameRedis() throws {
        let redis = try RedisServer()
        let endpoint = try RedisEndpoint.parse(redis.url)
        let first = RedisChangeHub(endpoint: endpoint)
        let second = RedisChangeHub(endpoint: endpoint)
        defer {
            first.close()
            second.close()
        }
        let heard = Mutex<[String: [ChangeNotice]]>([:])
        _ = first.subscribe { notice in heard.withLock { $0["first", default: []].append(notice) } }
        let subscription = second.subscribe { notice in heard.withLock { $0["second", default: []].append(notice) } }
        try waitFor { first.isSubscribed && second.isSubscribed }

        first.publish(ChangeNotice(topic: "session abc app restaurant", version: 7))
        second.publish(ChangeNotice(topic: "follow 1234", version: 8))
        try waitFor { heard.withLock { $0["first"]?.count == 2 && $0["second"]?.count == 2 } }
        let expected = [
            ChangeNotice(topic: "session abc app restaurant", version: 7),
            ChangeNotice(topic: "follow 1234", version: 8),
        ]
        let (atFirst, atSecond) = heard.withLock { ($0["first"] ?? [], $0["second"] ?? []) }
        #expect(atFirst == atSecond, "one order for every subscriber")
        #expect(Set(atFirst.map(\.version)) == Set(expected.map(\.version)))
        #expect(Set(atFirst.map(\.topic)) == Set(expected.map(\.topic)))

        second.unsubscribe(subscription)
        first.publish(ChangeNotice(topic: "after", version: 9))
        try waitFor { heard.withLock { $0["first"]?.count == 3 } }
        #expect(heard.withLock { $0["second"]?.count } == 2, "unsubscribed")
    }

    /// Redis restarted: the subscriber reconnects by itself and delivers again.
    @Test func theSubscriberReconnectsAfterRedisRestarts() throws {
        let redis = try RedisServer()
        let hub = RedisChangeHub(endpoint: try RedisEndpoint.parse(redis.url))
        defer { hub.close() }
        let heard = Mutex<[UInt64]>([])
        _ = hub.subscribe { notice in heard.withLock { $0.append(notice.version) } }
        try waitFor { hub.isSubscribed }
        redis.kill()
        try waitFor { !hub.isSubscribed }
        try redis.start()
        try waitFor { hub.isSubscribed }
        hub.publish(ChangeNotice(topic: "t", version: 1))
        try waitFor { heard.withLock { $0 == [1] } }
    }

    @Test func aPayloadCarriesTheVersionThenTheTopic() {
        #expect(RedisChangeHub.notice(from: Array("12 a b".utf8)) == ChangeNotice(topic: "a b", version: 12))
        #expect(RedisChangeHub.notice(from: Array("x a".utf8)) == nil)
        #expect(RedisChangeHub.notice(from: Array("12".utf8)) == nil)
    }
}

/// Polls `condition` every 10 ms for up to `seconds` (generous: the machine may be loaded).
func waitFor(seconds: Double = 15, _ condition: () -> Bool) throws {
    let deadline = Date().addingTimeInterval(seconds)
    while !condition() {
        guard Date() < deadline else {
            Issue.record("timed out waiting")
            throw CancellationError()
        }
        usleep(10_000)
    }
}
