import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// nginx with the repository's sample load-balancer config (examples/nginx/tabstage.conf),
/// its listening port and its upstream instances replaced by a test's own, in a temporary
/// prefix folder; stopped by its process id.
public final class NginxServer {
    public let port: UInt16
    public let folder: URL
    private let process: ChildProcess

    /// `sampleConfig` is the sample file's text; its `listen 127.0.0.1:8080` and its
    /// `server 127.0.0.1:808N` lines are replaced (those past `upstreamPorts` left out); it must
    /// have at least as many of those as `upstreamPorts`.
    public init(sampleConfig: String, upstreamPorts: [UInt16]) throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("tabstage-nginx-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        port = try FreePort.pick()
        var lines = sampleConfig.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        var upstreams = upstreamPorts.makeIterator()
        var replacedListen = false
        for index in lines.indices {
            let trimmed = lines[index].trimmingCharacters(in: .whitespaces)
            if trimmed.hasPrefix("listen 127.0.0.1:8080") {
                lines[index] = lines[index].replacingOccurrences(of: "127.0.0.1:8080", with: "127.0.0.1:\(port)")
                replacedListen = true
            } else if trimmed.hasPrefix("server 127.0.0.1:808") {
                // Fewer ports than the sample's servers: the rest are left out.
                guard let upstream = upstreams.next() else {
                    lines[index] = ""
                    continue
                }
                lines[index] = lines[index].replacingOccurrences(
                    of: #"127\.0\.0\.1:808\d"#, with: "127.0.0.1:\(upstream)", options: .regularExpression)
            }
        }
        guard replacedListen, upstreams.next() == nil else {
            throw ServiceError("the sample config has no listen line or too few upstream servers")
        }
        let config = folder.appendingPathComponent("nginx.conf")
        try lines.joined(separator: "\n").write(to: config, atomically: true, encoding: .utf8)
        process = try ChildProcess(
            "/usr/sbin/nginx", ["-p", folder.path + "/", "-e", "error.log", "-c", config.path],
            logPath: folder.appendingPathComponent("output.log").path)
        let deadline = Date().addingTimeInterval(20)
        while Date() < deadline {
            if !process.isRunning {
                let log = (try? String(contentsOf: folder.appendingPathComponent("error.log"), encoding: .utf8)) ?? ""
                throw ServiceError("nginx exited at start: \(log)")
            }
            if let socket = FreePort.connect(port: port) {
                close(socket)
                return
            }
            usleep(10_000)
        }
        stop()
        throw ServiceError("nginx did not listen on \(port)")
    }

    deinit {
        stop()
        try? FileManager.default.removeItem(at: folder)
    }

    /// SIGQUIT (nginx's graceful stop), then waits for it.
    public func stop() { process.terminate(signal: SIGQUIT) }
}
