import Foundation
import PNGCodec
import TabStageApp

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

public struct UsageError: Error, Equatable, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}

/// What comparing one response with its snapshot file came to.
public enum SnapshotOutcome: Equatable, Sendable {
    case matched
    /// A new snapshot, written; a test that records reports it so the file gets reviewed.
    case recorded(path: String)
    /// A new snapshot, not written (mode `never`).
    case missing(path: String)
    /// A snapshot that does not match, left as it was.
    case mismatch(expected: HTTPSnapshot)
    /// A snapshot that did not match, written anew (modes `failed` and `all`).
    case updated(path: String, expected: HTTPSnapshot)

    public var passed: Bool { self == .matched }
}

/// A folder of snapshots: `NAME.txt` for each, and `NAME.png` beside it when the response was
/// an image. A PNG that no longer matches leaves `NAME.actual.png` and `NAME.diff.png` (the
/// pixels that differ, in magenta) for review; they are removed once it matches again.
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

    func imageURL(named name: String, _ suffix: String = "") -> URL {
        directory.appendingPathComponent(name + suffix + ".png")
    }

    /// Compares `actual` with the file `name`, writing it as the mode says; `image` is the
    /// response's PNG, kept beside the text.
    public func check(_ actual: HTTPSnapshot, named name: String, image: [UInt8]? = nil) throws -> SnapshotOutcome {
        let url = fileURL(named: name)
        let recorded: HTTPSnapshot? =
            FileManager.default.fileExists(atPath: url.path)
            ? HTTPSnapshot(text: try String(contentsOf: url, encoding: .utf8)) : nil
        guard let expected = recorded else {
            guard mode != .never else { return .missing(path: url.path) }
            try write(actual, image: image, named: name)
            return .recorded(path: url.path)
        }
        guard actual.text != expected.text else {
            if mode == .all { try write(actual, image: image, named: name) }
            try removeReviewImages(named: name)
            return .matched
        }
        if mode == .failed || mode == .all {
            try write(actual, image: image, named: name)
            return .updated(path: url.path, expected: expected)
        }
        if let image { try writeReviewImages(actual: image, named: name) }
        return .mismatch(expected: expected)
    }

    /// The snapshot files no name in `names` accounts for (file names, sorted): any `.txt` or
    /// `.png` file of the folder, review images included. Other files are not snapshots.
    public func obsoleteFiles(keeping names: Set<String>) throws -> [String] {
        guard FileManager.default.fileExists(atPath: directory.path) else { return [] }
        return try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { file in
            guard let stem = Self.snapshotName(ofFile: file) else { return false }
            return !names.contains(stem)
        }
        .sorted()
    }

    /// The name a file belongs to: `home` for `home.txt`, `home.png`, `home.actual.png` and
    /// `home.diff.png`; nil for a file that is no snapshot.
    static func snapshotName(ofFile file: String) -> String? {
        guard !file.hasPrefix(".") else { return nil }
        for suffix in [".actual.png", ".diff.png", ".png", ".txt"] where file.hasSuffix(suffix) {
            let stem = String(file.dropLast(suffix.count))
            return stem.isEmpty ? nil : stem
        }
        return nil
    }

    public func delete(files: [String]) throws {
        for file in files { try FileManager.default.removeItem(at: directory.appendingPathComponent(file)) }
    }

    private func write(_ snapshot: HTTPSnapshot, image: [UInt8]?, named name: String) throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try Data(snapshot.text.utf8).write(to: fileURL(named: name), options: .atomic)
        if let image {
            try Data(image).write(to: imageURL(named: name), options: .atomic)
        } else if FileManager.default.fileExists(atPath: imageURL(named: name).path) {
            try FileManager.default.removeItem(at: imageURL(named: name))
        }
        try removeReviewImages(named: name)
    }

    private func writeReviewImages(actual: [UInt8], named name: String) throws {
        try Data(actual).write(to: imageURL(named: name, ".actual"), options: .atomic)
        guard let stored = FileManager.default.contents(atPath: imageURL(named: name).path),
            let expectedImage = try? DecodedPNG(Array(stored)), let actualImage = try? DecodedPNG(actual)
        else { return }
        let difference = ImageDifference(expected: expectedImage, actual: actualImage)
        try Data(difference.png).write(to: imageURL(named: name, ".diff"), options: .atomic)
    }

    private func removeReviewImages(named name: String) throws {
        for suffix in [".actual", ".diff"] {
            let url = imageURL(named: name, suffix)
            if FileManager.default.fileExists(atPath: url.path) { try FileManager.default.removeItem(at: url) }
        }
    }
}

/// Where two images differ: a pixel that differs is opaque magenta, one that does not is the
/// expected pixel faded to a quarter of its opacity, over the larger of the two sizes.
struct ImageDifference {
    let width: Int
    let height: Int
    let rgba: [UInt8]
    /// How many pixels differ, counting those only one image has.
    let differingPixels: Int

    init(expected: DecodedPNG, actual: DecodedPNG) {
        width = max(expected.width, actual.width)
        height = max(expected.height, actual.height)
        var rgba = [UInt8](repeating: 0, count: width * height * 4)
        var differing = 0
        for y in 0..<height {
            for x in 0..<width {
                let out = (y * width + x) * 4
                let old = Self.pixel(expected, x: x, y: y)
                if let old, let new = Self.pixel(actual, x: x, y: y), old == new {
                    rgba[out..<out + 4] = [old[0], old[1], old[2], old[3] / 4]
                } else {
                    rgba[out..<out + 4] = [255, 0, 255, 255]
                    differing += 1
                }
            }
        }
        self.rgba = rgba
        differingPixels = differing
    }

    var png: [UInt8] { PNGEncoder.encode(rgba: rgba, width: width, height: height) }

    private static func pixel(_ image: DecodedPNG, x: Int, y: Int) -> [UInt8]? {
        guard x < image.width, y < image.height else { return nil }
        let start = (y * image.width + x) * 4
        return Array(image.rgba[start..<start + 4])
    }
}
