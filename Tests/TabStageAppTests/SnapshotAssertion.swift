import Foundation
import HTTPTesting
import Testing

@testable import Snapshots
@testable import TabStageApp
@testable import TabStageCLI

/// Compares a response with `__Snapshots__/<TestFile>/<testName>.txt` beside the calling test
/// file, after swift-snapshot-testing: the mode comes from `SNAPSHOT_TESTING_RECORD` (default
/// `missing`, `never` under CI), a mismatch fails with a line diff, and a freshly recorded
/// snapshot fails once so that a person reads it before it is trusted.
func assertSnapshot(
    of response: TestResponse, named name: String? = nil, filePath: String = #filePath,
    function: String = #function, sourceLocation: SourceLocation = #_sourceLocation
) {
    let snapshot = HTTPSnapshot(
        statusLine: "HTTP/1.1 \(response.status) \(response.reasonPhrase)",
        headers: response.headers.fields.map { (name: $0.name, value: $0.value) }, body: response.body)
    let testFile = URL(fileURLWithPath: filePath)
    let directory = testFile.deletingLastPathComponent().appendingPathComponent("__Snapshots__")
        .appendingPathComponent(testFile.deletingPathExtension().lastPathComponent)
    let testName = function.split(separator: "(").first.map(String.init) ?? function
    let fileName = name.map { "\(testName).\($0)" } ?? testName
    do {
        let mode = try SnapshotRecordMode.fromEnvironment(ProcessInfo.processInfo.environment)
        let store = SnapshotStore(directory: directory, mode: mode)
        switch try store.check(snapshot, named: fileName) {
        case .matched:
            break
        case .recorded(let path):
            Issue.record("Recorded a new snapshot at \(path); review it and run again.", sourceLocation: sourceLocation)
        case .missing(let path):
            Issue.record(
                "No snapshot at \(path) and recording is off (SNAPSHOT_TESTING_RECORD=never or CI).",
                sourceLocation: sourceLocation)
        case .updated(let path, let expected):
            let diff = snapshot.difference(from: expected) ?? ""
            Issue.record(
                "Re-recorded \(path), which did not match; review it and run again:\n\(diff)",
                sourceLocation: sourceLocation)
        case .mismatch(let expected):
            let diff = snapshot.difference(from: expected) ?? ""
            Issue.record("Snapshot \(fileName) does not match:\n\(diff)", sourceLocation: sourceLocation)
        }
    } catch {
        Issue.record("Snapshot \(fileName) could not be checked: \(error)", sourceLocation: sourceLocation)
    }
}
