import Foundation
import HTTPTesting
import TabModel
import TabStageApp

/// A `--url` server that did not answer a request, in a sentence.
public struct UnreachableServer: Error, CustomStringConvertible {
    public var description: String
}

/// One run of `tabstage snapshot test`: replays a request list, writes each response as a
/// snapshot (request, prototype, response), compares it with its file as the record mode says,
/// and finds the files of the folder no request accounts for.
public struct SnapshotRun {
    public struct Options {
        public var mode: SnapshotRecordMode
        /// Whether the mode was asked for with `--record` (or the `record` alias): then what it
        /// writes is accepted. Otherwise a newly written snapshot fails the run once, so that
        /// someone reads it before it is trusted, as the project's own snapshot tests do.
        var isRecordingAsked: Bool
        var prune: Bool

        public init(mode: SnapshotRecordMode, isRecordingAsked: Bool, prune: Bool) {
            self.mode = mode
            self.isRecordingAsked = isRecordingAsked
            self.prune = prune
        }
    }

    /// What became of one snapshot.
    enum Verdict: Equatable {
        case matched
        /// It differs from its file, or the status is not the one the list expects.
        case failed
        /// It differed and was written anew.
        case updated
        /// It had no file; `recorded` when it was written.
        case new(recorded: Bool)
        /// Files of the folder that no request is named for; `deleted` with `--prune`.
        case obsolete(deleted: Bool)
    }

    struct Result {
        var name: String
        var verdict: Verdict
        /// The request's line in the list, when a request made it.
        var line: Int?
        /// The files concerned, relative to the folder.
        var files: [String]
        /// Why it failed, in a sentence (nil when it matched).
        var problem: String?
        var expected: String?
        var actual: String?
        /// Whether this result fails the run.
        var fails: Bool

        var diff: LineDiff? {
            guard let expected, let actual, expected != actual else { return nil }
            return LineDiff(expected: expected, actual: actual)
        }
    }

    let store: SnapshotStore
    let options: Options
    private(set) var results: [Result] = []

    public init(store: SnapshotStore, options: Options) {
        self.store = store
        self.options = options
    }

    public var passed: Bool { !results.contains { $0.fails } }

    /// `24 snapshots: 21 matched, 1 failed, 1 new, 1 obsolete`; updated and pruned ones are
    /// counted only when there are any.
    var summary: String {
        func count(_ predicate: (Verdict) -> Bool) -> Int { results.filter { predicate($0.verdict) }.count }
        let matched = count { $0 == .matched }
        let failed = count { $0 == .failed }
        let updated = count { $0 == .updated }
        let new = count { if case .new = $0 { true } else { false } }
        let obsolete = count { $0 == .obsolete(deleted: false) }
        let pruned = count { $0 == .obsolete(deleted: true) }
        var parts = ["\(matched) matched", "\(failed) failed"]
        if updated > 0 { parts.append("\(updated) updated") }
        parts += ["\(new) new", "\(obsolete) obsolete"]
        if pruned > 0 { parts.append("\(pruned) pruned") }
        let noun = results.count == 1 ? "snapshot" : "snapshots"
        return "\(results.count) \(noun): " + parts.joined(separator: ", ")
    }

    /// Replays `list` and checks every response, then the folder's obsolete files.
    public mutating func run(_ list: RequestList, apps: [AppDescription]) throws {
        var replay = SnapshotReplay(apps: apps)
        try run(list, patterns: []) { replay.send($0) }
    }

    /// Replays `list` against a running TabStage (`--url`), redacting what a live server does
    /// not repeat (``RemoteReplay``). A server that does not answer throws ``UnreachableServer``.
    public mutating func run(_ list: RequestList, server: HTTPURL) throws {
        var replay = RemoteReplay(address: server)
        try run(list, patterns: RemoteReplay.patterns(for: server)) { request in
            do {
                return try replay.send(request)
            } catch {
                throw UnreachableServer(description: "\(request.kind.rawValue) \(request.target): \(error)")
            }
        }
    }

    private mutating func run(
        _ list: RequestList, patterns: [Redactor.Pattern], send: (ReplayRequest) throws -> SnapshotReplay.Replayed
    ) throws {
        var redactor = Redactor(patterns: patterns + list.patterns)
        for request in list.requests {
            let response = try send(request)
            let text = redactor.redact(Self.text(of: request, response, redactedHeaders: list.redactedHeaders))
            results.append(try check(HTTPSnapshot(text: text), of: request, response: response))
        }
        try findObsolete(keeping: Set(list.requests.map(\.name)))
    }

    /// A snapshot file: the request as the list sent it, what the prototype did, the response.
    static func text(
        of request: ReplayRequest, _ response: SnapshotReplay.Replayed, redactedHeaders: Set<String>
    ) -> String {
        var lines = ["== request", request.summary]
        lines += request.headers.map { "\($0.name): \($0.value)" }
        if let status = request.expectedStatus { lines.append("expect \(status)") }
        if !response.prototype.isEmpty {
            lines.append("== prototype")
            lines += response.prototype
        }
        lines.append("== response")
        let snapshot = HTTPSnapshot(
            statusLine: response.statusLine, headers: response.headers, body: response.body, layout: .forReview,
            redactedHeaders: redactedHeaders)
        return lines.joined(separator: "\n") + "\n" + snapshot.text
    }

    private func check(
        _ actual: HTTPSnapshot, of request: ReplayRequest, response: SnapshotReplay.Replayed
    ) throws -> Result {
        let status = response.status
        let file = request.name + ".txt"
        let image = response.isPNG ? response.body : nil
        let files = image == nil ? [file] : [file, request.name + ".png"]
        var result = Result(
            name: request.name, verdict: .matched, line: request.line, files: files, problem: nil, expected: nil,
            actual: actual.text, fails: false)
        if let expectedStatus = request.expectedStatus, expectedStatus != status {
            // A wrong status is never written as the truth, whatever the mode.
            let url = store.fileURL(named: request.name)
            result.expected = (try? String(contentsOf: url, encoding: .utf8))
            result.verdict = .failed
            result.problem = "expected status \(expectedStatus), got \(status)"
            result.fails = true
            return result
        }
        switch try store.check(actual, named: request.name, image: image) {
        case .matched:
            break
        case .recorded:
            result.verdict = .new(recorded: true)
            result.fails = !options.isRecordingAsked
            result.problem = "recorded \(file)" + (result.fails ? ", which is new: review it and run again" : "")
        case .missing:
            result.verdict = .new(recorded: false)
            result.fails = true
            result.problem = "no snapshot \(file), and recording is off (--record never, or CI is set)"
        case .mismatch(let expected):
            result.verdict = .failed
            result.expected = expected.text
            result.fails = true
            result.problem = "the response differs from \(file)"
            if image != nil {
                result.files += [request.name + ".actual.png", request.name + ".diff.png"]
            }
        case .updated(_, let expected):
            result.verdict = .updated
            result.expected = expected.text
            result.fails = !options.isRecordingAsked
            result.problem = "re-recorded \(file), which differed" + (result.fails ? ": review it and run again" : "")
        }
        return result
    }

    private mutating func findObsolete(keeping names: Set<String>) throws {
        let files = try store.obsoleteFiles(keeping: names)
        let byName = Dictionary(grouping: files) { SnapshotStore.snapshotName(ofFile: $0) ?? $0 }
        if options.prune { try store.delete(files: files) }
        for name in byName.keys.sorted() {
            let files = byName[name] ?? []
            results.append(
                Result(
                    name: name, verdict: .obsolete(deleted: options.prune), line: nil, files: files,
                    problem: options.prune
                        ? "deleted: no request is named '\(name)'"
                        : "no request is named '\(name)' (delete it with --prune, or name a request so)",
                    expected: nil, actual: nil, fails: !options.prune))
        }
    }
}
