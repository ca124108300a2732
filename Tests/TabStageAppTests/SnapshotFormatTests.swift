import Foundation
import PNGCodec
import Testing

@testable import Snapshots
@testable import TabStageApp
@testable import TabStageCLI

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

@Test func aRedactedHeaderIsKeptWithItsValueHidden() {
    let snapshot = HTTPSnapshot(
        statusLine: "HTTP/1.1 200 OK", headers: [("X-Request-Id", "42"), ("Content-Type", "text/plain")],
        body: Array("x".utf8), redactedHeaders: ["x-request-id"])
    #expect(snapshot.text == "HTTP/1.1 200 OK\nContent-Type: text/plain\nX-Request-Id: <redacted>\n\nx")
}

@Test func binaryBodiesAreWrittenBySizeAndFingerprint() {
    let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0xFF, 0xFE]
    let snapshot = HTTPSnapshot(statusLine: "HTTP/1.1 200 OK", headers: [("Content-Type", "image/png")], body: png)
    #expect(snapshot.text.hasSuffix("\n<6 bytes, fnv1a64 \(HTTPSnapshot.fingerprint(png))>"))
    #expect(HTTPSnapshot.fingerprint(png) != HTTPSnapshot.fingerprint([0x89]))
    #expect(HTTPSnapshot.fingerprint([]) == "cbf29ce484222325")
}

@Test func aPNGIsReviewedByItsSizeAndPixelsWhateverItsCompression() {
    let rgba = (0..<(3 * 2 * 4)).map { UInt8($0 * 10) }
    let fast = PNGEncoder.encode(rgba: rgba, width: 3, height: 2, level: 1)
    let small = PNGEncoder.encode(rgba: rgba, width: 3, height: 2, level: 9)
    func review(_ png: [UInt8]) -> String {
        HTTPSnapshot(
            statusLine: "HTTP/1.1 200 OK", headers: [("Content-Type", "image/png")], body: png, layout: .forReview
        )
        .text
    }
    #expect(
        review(fast)
            == "HTTP/1.1 200 OK\nContent-Type: image/png\n\n<PNG 3 x 2, pixels fnv1a64 \(HTTPSnapshot.fingerprint(rgba))>\n"
    )
    #expect(review(small) == review(fast))
}

// MARK: The diff

@Test func theDiffIsAStandardUnifiedDiff() throws {
    let expected = HTTPSnapshot(text: "a\nb\nc\nd\ne\nf\ng\nh\n")
    let actual = HTTPSnapshot(text: "a\nb\nc\nD\ne\nf\ng\nh\n")
    let diff = try #require(actual.difference(from: expected))
    #expect(diff == "--- expected\n+++ actual\n@@ -1,7 +1,7 @@\n a\n b\n c\n-d\n+D\n e\n f\n g\n")
    #expect(expected.difference(from: expected) == nil)
}

@Test func distantChangesGetHunksOfTheirOwnAndAnEmptySideCountsFromZero() {
    let old = (1...20).map { "line \($0)" }.joined(separator: "\n") + "\n"
    let new = "first\n" + old.replacingOccurrences(of: "line 12\n", with: "") + "last\n"
    let diff = LineDiff(expected: old, actual: new).unified()
    #expect(
        diff.components(separatedBy: "\n").filter { $0.hasPrefix("@@") } == [
            "@@ -1,3 +1,4 @@", "@@ -9,7 +10,6 @@", "@@ -18,3 +18,4 @@",
        ])
    #expect(LineDiff(expected: "", actual: "new\n").unified() == "--- expected\n+++ actual\n@@ -0,0 +1,1 @@\n+new\n")
}

@Test func aMissingNewlineAtTheEndIsSaidAsDiffDoes() {
    #expect(
        LineDiff(expected: "a\nb", actual: "a\nb\n").unified()
            == "--- expected\n+++ actual\n@@ -1,2 +1,2 @@\n a\n-b\n\\ No newline at end of file\n+b\n")
}

/// Forty numbered lines, every ninth changed, and no newline at the end.
let manyChangedLines: String = (1...40).map { $0 % 9 == 0 ? "x\($0)" : "\($0)" }.joined(separator: "\n")
let manyLines: String = (1...40).map { "\($0)\n" }.joined()

/// `patch` applies every diff to the expected text and gets the actual one.
@Test(
    arguments: [
        ("a\nb\nc\n", "a\nB\nc\n"),
        ("one\ntwo\n", "zero\none\ntwo\nthree\n"),
        (manyLines, manyChangedLines),
        ("", "new\n"),
        ("gone\n", ""),
        ("tail", "tail\nmore"),
    ] as [(String, String)])
func patchAppliesTheDiff(expected: String, actual: String) throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("diff-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let file = folder.appendingPathComponent("expected")
    try Data(expected.utf8).write(to: file)
    let diff = LineDiff(expected: expected, actual: actual).unified()
    try Data(diff.utf8).write(to: folder.appendingPathComponent("change.diff"))
    let check = try run(
        "/usr/bin/patch", ["--dry-run", "--batch", "--force", "-i", "change.diff", "expected"], in: folder)
    #expect(check.status == 0, "\(check.output)\n\(diff)")
    let applied = try run("/usr/bin/patch", ["--batch", "--force", "-i", "change.diff", "expected"], in: folder)
    #expect(applied.status == 0, "\(applied.output)")
    #expect(try String(contentsOf: file, encoding: .utf8) == actual, "\(diff)")
}

struct ProcessResult {
    var status: Int32
    var output: String
}

func run(_ executable: String, _ arguments: [String], in folder: URL) throws -> ProcessResult {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    process.currentDirectoryURL = folder
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardError = pipe
    try process.run()
    let output = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return ProcessResult(status: process.terminationStatus, output: String(decoding: output, as: UTF8.self))
}

@Test func aTerminalSeesColoursAndTheChangedWordMarked() {
    let diff = LineDiff(
        expected: "<span class=\"tab-title\">Stamps</span>\n", actual: "<span class=\"tab-title\">Points</span>\n")
    let reverse = LineDiff.Style.reverse
    let normal = LineDiff.Style.noReverse
    let shown = diff.unified(highlight: true)
    #expect(shown.contains("\u{1B}[31m-<span class=\"tab-title\">\(reverse)Stamps\(normal)</span>\u{1B}[0m\n"))
    #expect(shown.contains("\u{1B}[32m+<span class=\"tab-title\">\(reverse)Points\(normal)</span>\u{1B}[0m\n"))
    #expect(!diff.unified().contains("\u{1B}"))
}

// MARK: HTML laid out for review

@Test func htmlIsLaidOutOneElementALineWithItsText() {
    let html = """
        <!doctype html>
        <html lang="en"><body><nav class="bar"><ul><li><a class="tab" href="/a" aria-current="page"><img alt="" src="/i.png"><span class="tab-title">Home</span><span class="badge">3<span class="visually-hidden"> unread</span></span></a></li></ul></nav>
        <p class="balance">0</p><br/><!-- a comment --></body></html>
        """
    #expect(
        HTMLLayout.laidOut(html) == """
            <!doctype html>
            <html lang="en">
              <body>
                <nav class="bar">
                  <ul>
                    <li>
                      <a class="tab" href="/a" aria-current="page">
                        <img alt="" src="/i.png">
                        <span class="tab-title">Home</span>
                        <span class="badge">
                          3
                          <span class="visually-hidden"> unread</span>
                        </span>
                      </a>
                    </li>
                  </ul>
                </nav>
                <p class="balance">0</p>
                <br/>
                <!-- a comment -->
              </body>
            </html>

            """)
}

@Test func scriptsKeepTheirTextAndStrayTagsTheirPlace() {
    let html = "<div><script>if (a < b) { x = \"</p>\" }</script></p><em>x > y</em></div><b>open"
    #expect(
        HTMLLayout.laidOut(html) == """
            <div>
              <script>if (a < b) { x = "</p>" }</script>
              </p>
              <em>x > y</em>
            </div>
            <b>open

            """)
}

// MARK: Record modes and files

@Test func recordModeComesFromTheEnvironment() throws {
    #expect(try SnapshotRecordMode.fromEnvironment([:]) == .missing)
    #expect(try SnapshotRecordMode.fromEnvironment(["CI": "true"]) == .never)
    #expect(try SnapshotRecordMode.fromEnvironment(["CI": "true", "SNAPSHOT_TESTING_RECORD": "all"]) == .all)
    #expect(throws: UsageError.self) { try SnapshotRecordMode.fromEnvironment(["SNAPSHOT_TESTING_RECORD": "yes"]) }
}

@Test func storeRecordsComparesAndRefusesToWriteInNeverMode() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("snapshots-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: folder) }
    let first = HTTPSnapshot(text: "HTTP/1.1 200 OK\n\none\n")
    let second = HTTPSnapshot(text: "HTTP/1.1 200 OK\n\ntwo\n")
    let never = SnapshotStore(directory: folder, mode: .never)
    let path = never.fileURL(named: "page").path
    #expect(try never.check(first, named: "page") == .missing(path: path))
    let missing = SnapshotStore(directory: folder, mode: .missing)
    #expect(try missing.check(first, named: "page") == .recorded(path: path))
    #expect(try missing.check(first, named: "page") == .matched)
    #expect(try missing.check(second, named: "page") == .mismatch(expected: first))
    let failed = SnapshotStore(directory: folder, mode: .failed)
    #expect(try failed.check(second, named: "page") == .updated(path: path, expected: first))
    #expect(try never.check(second, named: "page") == .matched)
    #expect(
        try SnapshotStore(directory: folder, mode: .all).check(first, named: "page")
            == .updated(path: path, expected: second))
}

@Test func obsoleteFilesAreTheSnapshotFilesNoNameAccountsFor() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("snapshots-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    for file in [
        "home.txt", "icon.txt", "icon.png", "icon.actual.png", "old.txt", "old.png", "gone.diff.png", "README.md",
        ".keep",
    ] {
        try Data().write(to: folder.appendingPathComponent(file))
    }
    let store = SnapshotStore(directory: folder, mode: .missing)
    #expect(try store.obsoleteFiles(keeping: ["home", "icon"]) == ["gone.diff.png", "old.png", "old.txt"])
    try store.delete(files: try store.obsoleteFiles(keeping: ["home", "icon"]))
    #expect(
        try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() == [
            ".keep", "README.md", "home.txt", "icon.actual.png", "icon.png", "icon.txt",
        ])
    #expect(
        try SnapshotStore(directory: folder.appendingPathComponent("none"), mode: .never).obsoleteFiles(keeping: [])
            == [])
}

@Test func aChangedImageLeavesTheActualOneAndTheDifferenceBesideIt() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("snapshots-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: folder) }
    let red = PNGEncoder.encode(rgba: [255, 0, 0, 255, 255, 0, 0, 255], width: 2, height: 1)
    let half = PNGEncoder.encode(rgba: [255, 0, 0, 255, 0, 0, 255, 255], width: 2, height: 1)
    func snapshot(_ png: [UInt8]) -> HTTPSnapshot {
        HTTPSnapshot(
            statusLine: "HTTP/1.1 200 OK", headers: [("Content-Type", "image/png")], body: png, layout: .forReview)
    }
    let store = SnapshotStore(directory: folder, mode: .missing)
    #expect(
        try store.check(snapshot(red), named: "icon", image: red) == .recorded(path: store.fileURL(named: "icon").path))
    #expect(FileManager.default.contents(atPath: store.imageURL(named: "icon").path) == Data(red))
    #expect(try store.check(snapshot(half), named: "icon", image: half) == .mismatch(expected: snapshot(red)))
    #expect(FileManager.default.contents(atPath: store.imageURL(named: "icon", ".actual").path) == Data(half))
    let difference = try DecodedPNG(Array(try Data(contentsOf: store.imageURL(named: "icon", ".diff"))))
    #expect(difference.rgba == [255, 0, 0, 63, 255, 0, 255, 255])
    #expect(try store.check(snapshot(red), named: "icon", image: red) == .matched)
    #expect(!FileManager.default.fileExists(atPath: store.imageURL(named: "icon", ".actual").path))
    #expect(!FileManager.default.fileExists(atPath: store.imageURL(named: "icon", ".diff").path))
}

// MARK: Redactions

@Test func sessionsAndTokensAreNumberedInTheOrderTheRunMeetsThem() {
    var redactor = Redactor()
    let first = redactor.redact(
        "Set-Cookie: tabstage_session=abc123; Path=/\n<input type=\"hidden\" name=\"csrf\" value=\"tok1\">\n")
    #expect(
        first
            == "Set-Cookie: tabstage_session=<session-1>; Path=/\n<input type=\"hidden\" name=\"csrf\" value=\"<csrf-1>\">\n"
    )
    let second = redactor.redact("Set-Cookie: tabstage_session=def456; Path=/\nold abc123, token tok1\n")
    #expect(second == "Set-Cookie: tabstage_session=<session-2>; Path=/\nold <session-1>, token <csrf-1>\n")
}

@Test func timestampsAndAUsersPatternsAreReplaced() throws {
    var redactor = Redactor(patterns: [
        Redactor.Pattern(source: "order-([0-9]+)", regex: try Regex("order-([0-9]+)")),
        Redactor.Pattern(source: "v[0-9]+\\.[0-9]+", regex: try Regex("v[0-9]+\\.[0-9]+")),
    ])
    let text = redactor.redact(
        "{\"time\": \"2026-12-01T20:04:45.120Z\"} at Tue, 01 Dec 2026 20:04:45 GMT: order-17, order-9, order-17 v1.2\n")
    #expect(
        text
            == "{\"time\": \"<date>\"} at <date>: order-<redacted-1>, order-<redacted-2>, order-<redacted-1> <redacted-3>\n"
    )
}
