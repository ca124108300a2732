import Foundation
import RedisClient
import ServiceTesting
import Sessions
import Testing

private func id(_ number: Int) -> SessionID { SessionID(high: 0xe9d, low: UInt64(number)) }
private func now() -> Double { Date().timeIntervalSince1970 }

/// The forms of `--sessions` that name a Redis, against a real one that asks for a password and
/// listens on a Unix socket too.
@Suite struct RedisEndpointTests {
    /// A password from the URL (percent-encoded) or from `TABSTAGE_REDIS_PASSWORD`, a database
    /// number after the port or in `?db=`, over TCP and over the socket: the same session is
    /// reached by every URL that names its database, and by none that names another.
    @Test func aPasswordADatabaseAndTheUnixSocketReachTheSameSessions() throws {
        let redis = try RedisServer(password: "s3 cret")
        let tcp = try RedisSessionStore<Int>.open(
            endpoint: try RedisEndpoint.parse("redis://:s3%20cret@127.0.0.1:\(redis.port)/3"))
        defer { tcp.close() }
        try tcp.modify(id(1), now: now()) { $0 = 5 }

        let socket = try RedisSessionStore<Int>.open(
            endpoint: try RedisEndpoint.parse("redis+unix://\(redis.socketPath)?db=3", fallbackPassword: "s3 cret"))
        defer { socket.close() }
        #expect(try socket.state(of: id(1), now: now()) == 5)
        try socket.modify(id(1), now: now()) { $0? += 1 }
        #expect(try tcp.state(of: id(1), now: now()) == 6)

        let otherDatabase = try RedisSessionStore<Int>.open(
            endpoint: try RedisEndpoint.parse("redis://127.0.0.1:\(redis.port)/4", fallbackPassword: "s3 cret"))
        defer { otherDatabase.close() }
        #expect(try otherDatabase.state(of: id(1), now: now()) == nil)
    }

    /// Without the password, or with a wrong one, opening the store fails at once with a message
    /// that names the URL (without the password) and the way to give one.
    @Test func aMissingOrWrongPasswordIsRefusedAtOpening() throws {
        let redis = try RedisServer(password: "right")
        for url in ["redis://127.0.0.1:\(redis.port)", "redis://:wrong@127.0.0.1:\(redis.port)"] {
            do {
                let store = try RedisSessionStore<Int>.open(endpoint: try RedisEndpoint.parse(url))
                store.close()
                Issue.record("\(url) opened")
            } catch {
                let message = String(describing: error)
                #expect(message.contains("TABSTAGE_REDIS_PASSWORD"), "\(message)")
                #expect(!message.contains("wrong"), "the password is not shown: \(message)")
            }
        }
    }
}
