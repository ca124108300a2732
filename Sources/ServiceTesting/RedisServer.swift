import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A `redis-server` of a test's own, on a free loopback port with its files in a temporary
/// folder: started ready (it answers PING), stopped by its process id, its folder removed when
/// dropped. Restarting it keeps the port and the folder, so its append-only file is read again.
public final class RedisServer {
    public let port: UInt16
    public let folder: URL
    private var process: ChildProcess?

    /// The password Redis asks for (`requirepass`), if any.
    public let password: String?

    public var url: String { "redis://127.0.0.1:\(port)" }

    /// The Unix socket Redis listens on as well, in its folder.
    public var socketPath: String { Self.socketPath(in: folder) }

    private static func socketPath(in folder: URL) -> String { folder.appendingPathComponent("redis.sock").path }

    /// `appendfsync always`: every answered write is written and flushed to the append-only file
    /// before its answer leaves, so a Redis killed and started again holds every acknowledged
    /// change. (With Redis's default `everysec`, a write can wait behind the previous second's
    /// flush while its answer goes out, and a kill then loses it.)
    public init(password: String? = nil) throws {
        self.password = password
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("tabstage-redis-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        var lastError: any Error = ServiceError("redis-server did not start")
        // A free port can be taken by someone else before Redis binds it: try a few.
        for _ in 0..<5 {
            let candidate = try FreePort.pick()
            do {
                let started = try Self.launch(port: candidate, folder: folder, password: password)
                port = candidate
                process = started
                return
            } catch {
                lastError = error
            }
        }
        throw lastError
    }

    deinit {
        stop()
        try? FileManager.default.removeItem(at: folder)
    }

    /// Stops Redis (SIGTERM: it finishes its file) and waits for it to exit.
    public func stop() { end(signal: SIGTERM) }

    /// Kills Redis without warning (SIGKILL) and waits for it to exit.
    public func kill() { end(signal: SIGKILL) }

    /// Freezes Redis (SIGSTOP): its connections stay open and nothing answers, as a Redis that
    /// hangs. `resume()` lets it go on.
    public func pause() { signal(SIGSTOP) }

    /// Lets a paused Redis go on (SIGCONT).
    public func resume() { signal(SIGCONT) }

    private func signal(_ number: Int32) {
        guard let running = process else { return }
        send(number, to: running.pid)
    }

    /// Starts Redis again on the same port and folder.
    public func start() throws {
        guard process == nil else { return }
        process = try Self.launch(port: port, folder: folder, password: password)
    }

    public var isRunning: Bool { process?.isRunning ?? false }

    private func end(signal: Int32) {
        guard let running = process else { return }
        process = nil
        running.terminate(signal: signal)
    }

    private static func launch(port: UInt16, folder: URL, password: String?) throws -> ChildProcess {
        let arguments =
            [
                "--port", String(port), "--bind", "127.0.0.1", "--dir", folder.path, "--appendonly", "yes",
                "--appendfsync", "always", "--save", "", "--daemonize", "no", "--protected-mode", "no",
                "--unixsocket", socketPath(in: folder), "--unixsocketperm", "700",
            ] + (password.map { ["--requirepass", $0] } ?? [])
        let process = try ChildProcess(
            "/usr/bin/redis-server", arguments, logPath: folder.appendingPathComponent("redis.log").path)
        // Loading a large append-only file can take a moment; on a loaded machine, more.
        let deadline = Date().addingTimeInterval(20)
        while Date() < deadline {
            if !process.isRunning { throw ServiceError("redis-server exited at start (port \(port) taken?)") }
            if Self.answersPing(port: port) { return process }
            usleep(10_000)
        }
        process.terminate(signal: SIGKILL)
        throw ServiceError("redis-server on port \(port) did not answer PING")
    }

    /// Writes this Redis has applied since it started (`rdb_changes_since_last_save`: it saves no
    /// snapshots): how a test sees that a request wrote nothing.
    public func writeCount() throws -> Int {
        let writes = try info("persistence", field: "rdb_changes_since_last_save:")
        guard let count = Int(writes) else { throw ServiceError("INFO persistence: \(writes)") }
        return count
    }

    /// How many times Redis has run `command` (lower case, as `INFO commandstats` names it) since
    /// it started: how a test sees which requests reached Redis.
    public func calls(of command: String) throws -> Int {
        let stats = try info("commandstats", field: "cmdstat_\(command):", absentIsEmpty: true)
        guard !stats.isEmpty else { return 0 }
        guard let field = stats.split(separator: ",").first, field.hasPrefix("calls="),
            let count = Int(field.dropFirst("calls=".count))
        else { throw ServiceError("INFO commandstats: \(stats)") }
        return count
    }

    /// The value of `field` in `INFO section`, up to the end of its line; "" when the answer has
    /// no such field and `absentIsEmpty` (a command never run has no line).
    private func info(_ section: String, field: String, absentIsEmpty: Bool = false) throws -> String {
        guard let socket = FreePort.connect(port: port) else { throw ServiceError("Redis on \(port) is not there") }
        defer { close(socket) }
        let command = Array("INFO \(section)\r\n".utf8)
        guard write(socket, command, command.count) == command.count else { throw ServiceError("INFO not sent") }
        var answer = ""
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = read(socket, &buffer, buffer.count)
            guard count > 0 else { throw ServiceError("Redis closed before answering INFO") }
            answer += String(decoding: buffer[..<count], as: UTF8.self)
            if let start = answer.range(of: field)?.upperBound, let end = answer[start...].range(of: "\r\n") {
                return String(answer[start..<end.lowerBound])
            }
            // The reply is one bulk string: once it has all arrived, the field is not in it.
            if absentIsEmpty, Self.isWholeBulkReply(answer) { return "" }
        }
    }

    private static func isWholeBulkReply(_ answer: String) -> Bool {
        guard answer.hasPrefix("$"), let lineEnd = answer.range(of: "\r\n"),
            let length = Int(answer[answer.index(after: answer.startIndex)..<lineEnd.lowerBound])
        else { return false }
        return answer.utf8.count >= answer.utf8.distance(from: answer.startIndex, to: lineEnd.upperBound) + length + 2
    }

    /// Whether a Redis on `port` answers `PING` with `+PONG`, or asks for its password (and is not
    /// `-LOADING` its file).
    public static func answersPing(port: UInt16) -> Bool {
        guard let socket = FreePort.connect(port: port) else { return false }
        defer { close(socket) }
        let ping = Array("PING\r\n".utf8)
        guard write(socket, ping, ping.count) == ping.count else { return false }
        var buffer = [UInt8](repeating: 0, count: 64)
        let count = read(socket, &buffer, buffer.count)
        // A Redis that wants a password answers too, with NOAUTH.
        let answer = count > 0 ? String(decoding: buffer[..<count], as: UTF8.self) : ""
        return answer.hasPrefix("+PONG") || answer.hasPrefix("-NOAUTH")
    }
}

/// A helper's process could not be started.
public struct ServiceError: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}

/// Loopback ports for helpers that cannot pick their own.
public enum FreePort {
    /// A port the system had free a moment ago (bound to port 0, then released).
    public static func pick() throws -> UInt16 {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socket >= 0 else { throw ServiceError("no socket") }
        defer { close(socket) }
        var address = loopback(port: 0)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { raw in
                bind(socket, raw, length) == 0 && getsockname(socket, raw, &length) == 0
            }
        }
        guard bound else { throw ServiceError("cannot bind a loopback port") }
        return UInt16(bigEndian: address.sin_port)
    }

    /// A connected socket to 127.0.0.1:`port` (with a short timeout), or nil.
    static func connect(port: UInt16) -> Int32? {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socket >= 0 else { return nil }
        var timeout = timeval(tv_sec: 1, tv_usec: 0)
        setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = loopback(port: port)
        let connected = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
        guard connected else {
            close(socket)
            return nil
        }
        return socket
    }

    private static func loopback(port: UInt16) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return address
    }
}

/// A signal to a process, by the C function the methods named `kill` hide.
private func send(_ signal: Int32, to pid: pid_t) { kill(pid, signal) }
