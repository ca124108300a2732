import Foundation
import RedisClient
import ServiceTesting
import Testing

@testable import Sessions

private func id(_ number: Int) -> SessionID { SessionID(high: 0x5e7e1, low: UInt64(number)) }
private func now() -> Double { Date().timeIntervalSince1970 }

/// A store on Redis through a relay that can keep Redis's answers back, and a look at what
/// Redis holds that goes around the relay.
private final class RelayedStore {
    let redis: RedisServer
    let relay: RedisRelay
    let store: RedisSessionStore<Int>
    let direct: RedisSessionStore<Int>

    init() throws {
        redis = try RedisServer()
        relay = try RedisRelay(to: redis)
        store = try RedisSessionStore<Int>.open(endpoint: try RedisEndpoint.parse(relay.url))
        direct = try RedisSessionStore<Int>.open(endpoint: try RedisEndpoint.parse(redis.url), cachedSessions: 0)
        let deadline = Date().addingTimeInterval(10)
        while !store.isCaching {
            guard Date() < deadline else { throw ServiceError("the store's subscription did not listen") }
            usleep(10_000)
        }
    }

    deinit {
        store.close()
        direct.close()
        relay.stop()
    }

    /// The change's error, nil when it succeeded.
    func change(_ session: SessionID, to value: Int) -> SessionStoreError? {
        do {
            try store.modify(session, now: now()) { $0 = value }
            return nil
        } catch {
            return error
        }
    }
}

/// A change Redis ran whose answer never came (Redis hung or died just after): what the
/// visitor is told is what happened, and the instance does not keep what it held before.
@Suite(.serialized) struct RedisUnansweredChangeTests {
    /// Redis runs the change and its answer is kept back: the store finds the change made
    /// (Redis holds it once the change's deadline has passed) and answers it as made, not 503.
    @Test func aChangeRedisMadeWhoseAnswerNeverCameIsAnsweredAsMade() throws {
        let fixture = try RelayedStore()
        try fixture.store.modify(id(1), now: now()) { $0 = 1 }
        fixture.relay.withhold(.init(scriptAnswers: true))
        let error = fixture.change(id(1), to: 2)
        fixture.relay.withhold(.init())
        #expect(try fixture.direct.state(of: id(1), now: now()) == 2, "Redis ran the change")
        #expect(error == nil, "the change Redis made was answered with an error: \(String(describing: error))")
    }

    /// Redis runs the change, then neither its answer nor any other comes (its message to the
    /// instance's cache is lost too): the error says the outcome is unknown, and the next read
    /// asks Redis instead of answering from the cache with the state from before the change.
    @Test func aChangeWhoseOutcomeCannotBeToldSaysSoAndTheNextReadAsksRedis() throws {
        let fixture = try RelayedStore()
        try fixture.store.modify(id(2), now: now()) { $0 = 1 }
        // Read until three reads in a row are answered from the cache (fresh) and reach Redis no
        // more: the change's own notice can come after a first fresh read (a loaded machine) and
        // rightly sends the next read to Redis once.
        var reads = try fixture.redis.calls(of: "pttl")
        var cachedInARow = 0
        for _ in 0..<100 where cachedInARow < 3 {
            #expect(try fixture.store.state(of: id(2), now: now()) == 1)
            let sent = try fixture.redis.calls(of: "pttl")
            cachedInARow = sent == reads ? cachedInARow + 1 : 0
            reads = sent
        }
        try #require(cachedInARow == 3, "the session is read from the cache")

        fixture.relay.withhold(.init(commandAnswers: true, publishedMessages: true))
        let error = fixture.change(id(2), to: 2)
        fixture.relay.withhold(.init())
        #expect(try fixture.direct.state(of: id(2), now: now()) == 2, "Redis ran the change")
        #expect(
            error?.outcomeUnknown == true, "the error says the change may have been made: \(String(describing: error))")
        #expect(try fixture.store.state(of: id(2), now: now()) == 2, "the read after it asks Redis")
    }
}
