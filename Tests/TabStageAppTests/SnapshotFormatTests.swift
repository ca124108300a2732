import Foundation
import Testing

@testable import TabStageApp

@Test func snapshotKeepsAllowedHeadersSortedAndTheBody() {
    let snapshot = HTTPSnapshot(
        statusLine: "HTTP/1.1 200 OK",
        headers: [
            ("Date", "Mon, 30 Nov 2026 22:00:00 GMT"), ("content-type", "text/html; charset=utf-8"),
            ("Content-Length", "5"), ("Vary", "X-TabStage-Fragment"), ("ETag", "\"abc\""),
        ],
        body: Array("<p>\n".utf8))
    #expect(
        snapshot.text == """
            HTTP/1.1 200 OK
            Content-Type: text/html; charset=utf-8
            ETag: "abc"
            Vary: X-TabStage-Fragment

            <p>

            """)
}

@Test func binaryBodiesAreWrittenBySizeAndFingerprint() {
    let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0xFF, 0xFE]
    let snapshot = HTTPSnapshot(statusLine: "HTTP/1.1 200 OK", headers: [("Content-Type", "image/png")], body: png)
    #expect(snapshot.text.hasSuffix("\n<6 bytes, fnv1a64 \(HTTPSnapshot.fingerprint(png))>"))
    #expect(HTTPSnapshot.fingerprint(png) != HTTPSnapshot.fingerprint([0x89]))
    #expect(HTTPSnapshot.fingerprint([]) == "cbf29ce484222325")
}

@Test func diffShowsRemovedAndAddedLinesWithContext() throws {
    let expected = HTTPSnapshot(text: "a\nb\nc\nd\ne\nf\ng")
    let actual = HTTPSnapshot(text: "a\nb\nc\nD\ne\nf\ng")
    let diff = try #require(actual.difference(from: expected))
    #expect(diff == "--- expected\n+++ actual\n@@ -2 +2 @@\n  b\n  c\n− d\n+ D\n  e\n  f\n")
    #expect(expected.difference(from: expected) == nil)
}

@Test func diffHandlesInsertionsAtTheEnds() throws {
    let diff = try #require(HTTPSnapshot(text: "x\na\nb\ny").difference(from: HTTPSnapshot(text: "a\nb")))
    #expect(diff.contains("+ x\n"))
    #expect(diff.contains("+ y\n"))
    #expect(!diff.contains("− "))
}

@Test func recordModeComesFromTheEnvironment() throws {
    #expect(try SnapshotRecordMode.fromEnvironment([:]) == .missing)
    #expect(try SnapshotRecordMode.fromEnvironment(["CI": "true"]) == .never)
    #expect(try SnapshotRecordMode.fromEnvironment(["CI": "true", "SNAPSHOT_TESTING_RECORD": "all"]) == .all)
    #expect(throws: UsageError.self) { try SnapshotRecordMode.fromEnvironment(["SNAPSHOT_TESTING_RECORD": "yes"]) }
}

@Test func storeRecordsComparesAndRefusesToWriteInNeverMode() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("snapshots-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: folder) }
    let first = HTTPSnapshot(text: "HTTP/1.1 200 OK\n\none")
    let second = HTTPSnapshot(text: "HTTP/1.1 200 OK\n\ntwo")
    let never = SnapshotStore(directory: folder, mode: .never)
    #expect(try never.check(first, named: "page") == .missing(path: never.fileURL(named: "page").path))
    let missing = SnapshotStore(directory: folder, mode: .missing)
    #expect(try missing.check(first, named: "page") == .recorded(path: missing.fileURL(named: "page").path))
    #expect(try missing.check(first, named: "page") == .matched)
    guard case .mismatch(let diff) = try missing.check(second, named: "page") else {
        Issue.record("a changed body must not match")
        return
    }
    #expect(diff.contains("− one\n+ two"))
    let failed = SnapshotStore(directory: folder, mode: .failed)
    #expect(try failed.check(second, named: "page") == .recorded(path: failed.fileURL(named: "page").path))
    #expect(try never.check(second, named: "page") == .matched)
}
