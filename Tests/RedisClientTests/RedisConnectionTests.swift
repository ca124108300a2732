import Dispatch
import Foundation
import RedisClient
import ServiceTesting
import Synchronization
import Testing

/// A listening connection is shut by another thread when its owner closes (`interrupt()`), maybe
/// just as its own thread writes to it (a heartbeat, a command of its setup).
@Suite struct RedisConnectionShutTests {
    /// The thread blocked reading the connection wakes with an error, and a command written
    /// after the shut is still sent: a write to a socket shut for writing would raise SIGPIPE,
    /// which ends the whole process (a server, or this test run).
    @Test func shuttingAConnectionWakesItsReaderAndRaisesNoSignal() throws {
        let redis = try RedisServer()
        let endpoint = try RedisEndpoint.parse(redis.url)
        let listening = try RedisConnection(endpoint, timeouts: RedisTimeouts(), commandTimeout: false)
        _ = try listening.run(.subscribe([Array("nothing".utf8)]))
        let outcome = Mutex<[String]>([])
        let woke = DispatchSemaphore(value: 0)
        Thread {
            let reply = try? listening.readReply()
            outcome.withLock { $0.append(reply == nil ? "failed" : "answered") }
            woke.signal()
        }.start()
        usleep(50_000)
        listening.interrupt()
        #expect(woke.wait(timeout: .now() + 5) == .success, "the blocked read woke")
        #expect(outcome.withLock { $0 } == ["failed"])

        let writing = try RedisConnection(endpoint, timeouts: RedisTimeouts())
        writing.interrupt()
        #expect(throws: Never.self) { try writing.send(.ping) }
    }
}
