import Dispatch
import Foundation
import RedisClient
import ServiceTesting
import Synchronization
import Testing

/// Polls `condition` every 10 ms for up to `seconds` (generous: the machine may be loaded).
private func waitFor(seconds: Double = 15, _ condition: () -> Bool) throws {
    let deadline = Date().addingTimeInterval(seconds)
    while !condition() {
        guard Date() < deadline else { throw ServiceError("not within \(seconds) s") }
        usleep(10_000)
    }
}

/// A client's one listening connection, shared by its listeners and by the requests that read.
@Suite struct RedisSubscriptionTests {
    /// The subscription's own thread takes a message off the socket and is held up before
    /// applying it (a preempted thread, here a held `apply`): a reader's `catchUp` meanwhile
    /// finds the socket empty, and must wait for the message to be applied rather than return
    /// at once.
    @Test func aReaderWaitsForANoticeAnotherThreadIsApplying() throws {
        let redis = try RedisServer()
        let client = RedisClient(endpoint: try RedisEndpoint.parse(redis.url))
        let entered = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let applied = Atomic<Int>(0)
        _ = client.subscription.listen(
            to: "held",
            .init(apply: { _ in
                entered.signal()
                release.wait()
                applied.add(1, ordering: .sequentiallyConsistent)
            }))
        defer {
            release.signal()
            client.close()
        }
        try waitFor { client.subscription.isListening(to: "held") }
        _ = try client.run(.publish("held".utf8, "x".utf8))
        // The subscription's thread, woken by the message, takes it and is held in `apply`.
        #expect(entered.wait(timeout: .now() + 5) == .success, "the subscription took the message")
        let caughtUp = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            client.subscription.catchUp()
            caughtUp.signal()
        }
        #expect(caughtUp.wait(timeout: .now() + 0.3) == .timedOut, "catchUp returned before the notice was applied")
        release.signal()
        #expect(caughtUp.wait(timeout: .now() + 5) == .success)
        #expect(applied.load(ordering: .sequentiallyConsistent) == 1)
    }

    /// Two listeners of one channel and one of another, on one client: Redis is asked to
    /// subscribe once per channel, over one connection, and each message reaches each listener
    /// of its channel once, in the order it was published.
    @Test func everyListenerOfAChannelHearsEachMessageOnceOverOneConnection() throws {
        let redis = try RedisServer()
        let client = RedisClient(endpoint: try RedisEndpoint.parse(redis.url))
        defer { client.close() }
        let heard = Mutex<[String]>([])
        func listener(_ name: String) -> RedisSubscription.Listener {
            .init(receive: { message in
                heard.withLock { $0.append("\(name) \(String(decoding: message, as: UTF8.self))") }
            })
        }
        _ = client.subscription.listen(to: "a", listener("first"))
        let second = client.subscription.listen(to: "a", listener("second"))
        _ = client.subscription.listen(to: "b", listener("third"))
        try waitFor { client.subscription.isSubscribed(to: "a") && client.subscription.isSubscribed(to: "b") }
        _ = try client.pipeline([
            .publish("a".utf8, "1".utf8), .publish("b".utf8, "2".utf8), .publish("a".utf8, "3".utf8),
        ])
        try waitFor { heard.withLock { $0.count } == 5 }
        let lines = heard.withLock { $0 }
        #expect(lines.filter { $0.hasPrefix("first") } == ["first 1", "first 3"])
        #expect(lines.filter { $0.hasPrefix("second") } == ["second 1", "second 3"])
        #expect(lines.filter { $0.hasPrefix("third") } == ["third 2"])
        #expect(try redis.calls(of: "subscribe") <= 2, "one SUBSCRIBE per channel at most")

        client.subscription.stopListening(second)
        _ = try client.run(.publish("a".utf8, "4".utf8))
        try waitFor { heard.withLock { $0.count } == 6 }
        #expect(heard.withLock { $0.last } == "first 4", "the stopped listener heard nothing more")
    }

    /// Redis restarted: the subscription connects again by itself, subscribes to its channels
    /// again, and tells its listeners they were not listened to in between.
    @Test func theSubscriptionComesBackAfterRedisRestartsAndSaysItWasAway() throws {
        let redis = try RedisServer()
        let client = RedisClient(endpoint: try RedisEndpoint.parse(redis.url))
        defer { client.close() }
        let told = Mutex<[Bool]>([])
        let heard = Mutex<[String]>([])
        _ = client.subscription.listen(
            to: "c",
            .init(
                receive: { message in heard.withLock { $0.append(String(decoding: message, as: UTF8.self)) } },
                listening: { listening in told.withLock { $0.append(listening) } }))
        try waitFor { client.subscription.isListening(to: "c") }
        redis.kill()
        try waitFor { !client.subscription.isSubscribed(to: "c") }
        try redis.start()
        try waitFor { client.subscription.isListening(to: "c") }
        _ = try client.run(.publish("c".utf8, "back".utf8))
        try waitFor { heard.withLock { $0 } == ["back"] }
        #expect(told.withLock { $0 } == [true, false, true])
    }
}
