import Foundation
import HTTPServer
import Testing

/// The nginx samples hold as many live pages as the instances behind them accept
/// (`--max-streams`): nginx counts two connections per stream, the visitor's and the one to the
/// instance, and each connection is an open file of its worker.
@Suite struct NginxSampleTests {
    static func sample(_ name: String) throws -> String {
        try String(
            contentsOf: StageServer.repositoryRoot.appendingPathComponent("examples/nginx/\(name)"), encoding: .utf8)
    }

    /// The number after `directive` in `text` (the first line that starts with it, comments
    /// included when `inComment`), or nil.
    static func number(after directive: String, in text: String, inComment: Bool = false) -> Int? {
        for line in text.split(separator: "\n") {
            var trimmed = line.trimmingCharacters(in: .whitespaces)
            if inComment, trimmed.hasPrefix("#") { trimmed = trimmed.dropFirst().trimmingCharacters(in: .whitespaces) }
            guard trimmed.hasPrefix(directive + " ") else { continue }
            let digits = trimmed.dropFirst(directive.count + 1).prefix { $0.isNumber }
            return Int(digits)
        }
        return nil
    }

    static var streamsPerInstance: Int { StreamLimits().maxStreams }

    /// The balancer sample: every instance of its upstream full of streams, each taking two of
    /// the worker's connections, and the worker allowed that many open files and more.
    @Test func theBalancerSampleHoldsEveryStreamItsInstancesAccept() throws {
        let text = try Self.sample("tabstage.conf")
        let instances = text.split(separator: "\n").filter {
            $0.trimmingCharacters(in: .whitespaces).hasPrefix("server 127.0.0.1:")
        }.count
        #expect(instances == 3)
        #expect(Self.number(after: "worker_processes", in: text) == 1, "the sizes below are for one worker")
        let connections = try #require(Self.number(after: "worker_connections", in: text))
        #expect(connections >= 2 * instances * Self.streamsPerInstance + 1000)
        let files = try #require(Self.number(after: "worker_rlimit_nofile", in: text))
        #expect(files >= connections + 100)
    }

    /// The TLS sample is a site file, inside Debian's http block, where nginx takes no
    /// `worker_connections`: its comment says what to set in nginx.conf, sized for one instance.
    @Test func theTLSSampleSaysWhatToSetForOneInstancesStreams() throws {
        let text = try Self.sample("tabstage-tls.conf")
        let connections = try #require(Self.number(after: "worker_connections", in: text, inComment: true))
        #expect(connections >= 2 * Self.streamsPerInstance + 1000)
        let files = try #require(Self.number(after: "worker_rlimit_nofile", in: text, inComment: true))
        #expect(files >= connections + 100)
    }
}
