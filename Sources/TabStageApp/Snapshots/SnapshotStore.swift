import Foundation

/// When snapshot files are written, following swift-snapshot-testing's names.
public enum SnapshotRecordMode: String, Sendable, CaseIterable {
    /// Write every snapshot, even a matching one.
    case all
    /// Write snapshots that do not exist yet; compare the rest.
    case missing
    /// Write missing snapshots and those that no longer match.
    case failed
    /// Write nothing: a missing snapshot is a failure too.
    case never

    /// `SNAPSHOT_TESTING_RECORD` when set; otherwise `missing`, or `never` when `CI` is set so
    /// that CI never writes snapshots.
    public static func fromEnvironment(_ environment: [String: String]) throws(UsageError) -> SnapshotRecordMode {
        if let text = environment["SNAPSHOT_TESTING_RECORD"], !text.isEmpty {
            guard let mode = SnapshotRecordMode(rawValue: text) else {
                throw UsageError("SNAPSHOT_TESTING_RECORD must be all, missing, failed or never, not '\(text)'")
            }
            return mode
        }
        return environment["CI"].map { !$0.isEmpty } == true ? .never : .missing
    }
}

/// What comparing one response with its snapshot file came to.
public enum SnapshotOutcome: Equatable, Sendable {
    case matched
    /// Written (new or replaced); a test that records reports it so the file gets reviewed.
    case recorded(path: String)
    case mismatch(diff: String)
    case missing(path: String)

    public var passed: Bool { self == .matched }
}

/// A folder of `.txt` snapshot files.
public struct SnapshotStore: Sendable {
    public let directory: URL
    public let mode: SnapshotRecordMode

    public init(directory: URL, mode: SnapshotRecordMode) {
        self.directory = directory
        self.mode = mode
    }

    public func fileURL(named name: String) -> URL {
        directory.appendingPathComponent(name + ".txt")
    }

    public func check(_ actual: HTTPSnapshot, named name: String) throws -> SnapshotOutcome {
        let url = fileURL(named: name)
        let recorded: HTTPSnapshot? =
            FileManager.default.fileExists(atPath: url.path)
            ? HTTPSnapshot(text: try String(contentsOf: url, encoding: .utf8)) : nil
        switch (recorded, mode) {
        case (nil, .never):
            return .missing(path: url.path)
        case (nil, _), (_, .all):
            try write(actual, to: url)
            return .recorded(path: url.path)
        case (let expected?, _):
            guard let diff = actual.difference(from: expected) else { return .matched }
            if mode == .failed {
                try write(actual, to: url)
                return .recorded(path: url.path)
            }
            return .mismatch(diff: diff)
        }
    }

    private func write(_ snapshot: HTTPSnapshot, to url: URL) throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try Data(snapshot.text.utf8).write(to: url, options: .atomic)
    }
}
