import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// A relay between a Redis client and a `RedisServer`, on a loopback port of its own, that can
/// keep Redis's answers from the client while everything the client sends still reaches Redis:
/// a Redis that ran a command and whose answer came late or never, as when it hangs or dies
/// just after. Each connection is relayed by a thread of its own; its requests are read as
/// plain text only to tell a subscriber (it sent `SUBSCRIBE`) from the others.
public final class RedisRelay: @unchecked Sendable {
    public let port: UInt16
    public var url: String { "redis://127.0.0.1:\(port)" }

    /// What the relay keeps back from now on.
    public struct Withholding: Sendable, Equatable {
        /// Every answer to a connection that sends a script (`EVAL`, `EVALSHA`) from now on.
        public var scriptAnswers = false
        /// Every answer to every connection but a subscriber's.
        public var commandAnswers = false
        /// The messages a subscriber is sent (its `PING`s are still answered).
        public var publishedMessages = false

        public init(scriptAnswers: Bool = false, commandAnswers: Bool = false, publishedMessages: Bool = false) {
            self.scriptAnswers = scriptAnswers
            self.commandAnswers = commandAnswers
            self.publishedMessages = publishedMessages
        }
    }

    private let listener: Int32
    private let redisPort: UInt16
    private let state = Mutex(State())

    private struct State {
        var withholding = Withholding()
        var stopped = false
    }

    public init(to redis: RedisServer) throws {
        redisPort = redis.port
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard listener >= 0 else { throw ServiceError("no socket") }
        var yes: Int32 = 1
        setsockopt(listener, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { raw in
                bind(listener, raw, length) == 0 && listen(listener, 64) == 0
                    && getsockname(listener, raw, &length) == 0
            }
        }
        guard bound else {
            close(listener)
            throw ServiceError("the relay cannot listen on loopback")
        }
        self.listener = listener
        port = UInt16(bigEndian: address.sin_port)
        Thread.detachNewThread { [self] in acceptConnections() }
    }

    deinit { stop() }

    /// Changes what is kept back; connections already marked as a script's stay so.
    public func withhold(_ withholding: Withholding) { state.withLock { $0.withholding = withholding } }

    /// Closes the listener; the relayed connections end at their next turn.
    public func stop() {
        let first = state.withLock { state in
            defer { state.stopped = true }
            return !state.stopped
        }
        if first { shutdown(listener, Int32(SHUT_RDWR)) }
    }

    private var isStopped: Bool { state.withLock { $0.stopped } }

    private func acceptConnections() {
        while true {
            let client = accept(listener, nil, nil)
            guard client >= 0 else { break }
            guard let server = FreePort.connect(port: redisPort) else {
                close(client)
                continue
            }
            Thread.detachNewThread { [self] in relay(client: client, server: server) }
        }
        close(listener)
    }

    /// Passes bytes both ways until either side closes or the relay stops.
    private func relay(client: Int32, server: Int32) {
        defer {
            close(client)
            close(server)
        }
        var isSubscriber = false
        var sentScript = false
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while !isStopped {
            var watched = [
                pollfd(fd: client, events: Int16(POLLIN), revents: 0),
                pollfd(fd: server, events: Int16(POLLIN), revents: 0),
            ]
            guard poll(&watched, 2, 100) >= 0 else { return }
            if watched[0].revents != 0 {
                let count = read(client, &buffer, buffer.count)
                guard count > 0 else { return }
                let text = String(decoding: buffer[..<count], as: UTF8.self).uppercased()
                if text.contains("SUBSCRIBE") { isSubscriber = true }
                if text.contains("EVAL"), state.withLock({ $0.withholding.scriptAnswers }) { sentScript = true }
                guard writeAll(server, buffer[..<count]) else { return }
            }
            if watched[1].revents != 0 {
                let count = read(server, &buffer, buffer.count)
                guard count > 0 else { return }
                let withholding = state.withLock { $0.withholding }
                let kept: Bool
                if isSubscriber {
                    kept =
                        withholding.publishedMessages
                        && String(decoding: buffer[..<count], as: UTF8.self).contains("message\r\n")
                } else {
                    kept = sentScript || withholding.commandAnswers
                }
                if !kept { guard writeAll(client, buffer[..<count]) else { return } }
            }
        }
    }

    private func writeAll(_ descriptor: Int32, _ bytes: ArraySlice<UInt8>) -> Bool {
        var rest = bytes
        while !rest.isEmpty {
            let written = rest.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
            guard written > 0 else { return false }
            rest = rest.dropFirst(written)
        }
        return true
    }
}
