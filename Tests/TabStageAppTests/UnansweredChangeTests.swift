import Foundation
import HTTPTesting
import ServiceTesting
import Testing

/// A `serve` process on Redis through a relay that keeps Redis's answers back: a post whose
/// change Redis made without its answer coming is answered as what happened, never as a 503
/// that says nothing changed.
@Suite(.serialized) struct UnansweredChangeTests {
    typealias Browser = SeveralInstancesTests.Browser

    static let home = "/restaurant/bottom/home"
    static let action = "/restaurant/bottom/home/action"

    /// Redis makes the increment and its answer to the script is kept back: the instance finds
    /// the change made and answers the post as made (303), and the page shows it.
    @Test func aPostRedisMadeWhoseAnswerNeverCameIsAnsweredAsMade() throws {
        let redis = try RedisServer()
        let relay = try RedisRelay(to: redis)
        defer { relay.stop() }
        let instance = try SeveralInstancesTests.Instance(["--sessions", relay.url])
        let browser = Browser()
        try browser.get(instance.port, Self.home)
        relay.withhold(.init(scriptAnswers: true))
        let answer = try browser.post(instance.port, Self.action, [("action", "increment")])
        relay.withhold(.init())
        #expect(answer.status == 303, "answered \(answer.status): \(answer.text.prefix(300))")
        #expect(SeveralInstancesTests.counter(in: try browser.get(instance.port, Self.home)) == 1)
    }

    /// Redis makes the increment, and then no answer comes from it, nor its message to the
    /// instance's cache: the 503 page says the change may or may not have been saved, and the
    /// page reloaded once Redis answers again shows the change (not the cached page from before).
    @Test func aPostWhoseOutcomeIsUnknownSaysSoAndTheReloadShowsWhatRedisHolds() throws {
        let redis = try RedisServer()
        let relay = try RedisRelay(to: redis)
        defer { relay.stop() }
        let instance = try SeveralInstancesTests.Instance(["--sessions", relay.url])
        let browser = Browser()
        try browser.get(instance.port, Self.home)
        // Read again until the instance answers from its cache: Redis is sent no more reads.
        var reads = try redis.calls(of: "pttl")
        for _ in 0..<10 {
            try browser.get(instance.port, Self.home)
            let sent = try redis.calls(of: "pttl")
            if sent == reads { break }
            reads = sent
        }
        #expect(SeveralInstancesTests.counter(in: try browser.get(instance.port, Self.home)) == 0)
        try #require(try redis.calls(of: "pttl") == reads, "the page is read from the cache")

        relay.withhold(.init(commandAnswers: true, publishedMessages: true))
        let answer = try browser.post(instance.port, Self.action, [("action", "increment")])
        relay.withhold(.init())
        #expect(answer.status == 503)
        #expect(answer.text.contains("may or may not have been saved"), "\(answer.text.prefix(300))")
        #expect(SeveralInstancesTests.counter(in: try browser.get(instance.port, Self.home)) == 1)
    }
}
