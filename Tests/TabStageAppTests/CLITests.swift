import Foundation
import Synchronization
import Testing

@testable import Snapshots
@testable import TabStageApp
@testable import TabStageCLI

/// Runs the CLI in-process and keeps what it printed.
func runCLI(_ arguments: [String], environment: [String: String] = [:], outIsTerminal: Bool = false) -> (
    code: Int32, out: String, err: String
) {
    let out = Mutex("")
    let err = Mutex("")
    let console = Console(
        out: { text in out.withLock { $0 += text } },
        err: { text in err.withLock { $0 += text } },
        environment: environment, outIsTerminal: outIsTerminal
    )
    let code = TabStageCLI.run(arguments, console: console)
    return (code, out.withLock { $0 }, err.withLock { $0 })
}

@Test func helpListsEveryCommand() {
    let result = runCLI(["--help"])
    #expect(result.code == 0)
    for command in TabStageCLI.subcommands {
        #expect(result.out.contains(command.name))
    }
}

@Test func anOrdinaryBuildPrintsItsVersionAndSaysItRecordsNoCommit() {
    let result = runCLI(["--version"])
    #expect(result.code == 0)
    #expect(result.out == "tabstage \(TabStageCLI.version) (development build, no commit recorded)\n")
}

@Test func aBuildStampedByMakeDistPrintsItsVersionAndCommit() {
    #expect(
        TabStageCLI.versionLine(stamp: .init(version: "0.2.0", commit: "0b215a9c1d2e"))
            == "tabstage 0.2.0 (commit 0b215a9c1d2e)\n")
    #expect(
        TabStageCLI.versionLine(stamp: .init(version: nil, commit: nil))
            == "tabstage \(TabStageCLI.version) (development build, no commit recorded)\n")
}

@Test func theVersionInTheSourcesIsTheOneInTheVersionFile() throws {
    let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("VERSION")
    let text = try String(contentsOf: file, encoding: .utf8)
    #expect(text == TabStageCLI.version + "\n")
}

@Test func unknownCommandPrintsUsageAndExits2() {
    let result = runCLI(["frobnicate"])
    #expect(result.code == 2)
    #expect(result.err.contains("unknown command 'frobnicate'"))
    #expect(result.err.contains("Usage: tabstage"))
}

@Test func unknownOptionPrintsTheCommandUsageAndExits2() {
    let result = runCLI(["serve", "--bogus"])
    #expect(result.code == 2)
    #expect(result.err.contains("unknown option --bogus"))
    #expect(result.err.contains("Usage: tabstage serve"))
}

@Test func optionsAcceptBothSpellings() throws {
    let specs = [OptionSpec("port"), .flag("quiet")]
    let spaced = try ParsedArguments(["--port", "9000", "--quiet", "file.json"], options: specs)
    #expect(spaced.value("port") == "9000")
    #expect(spaced.has("quiet"))
    #expect(spaced.positionals == ["file.json"])
    let joined = try ParsedArguments(["--port=9001"], options: specs)
    #expect(joined.value("port") == "9001")
    #expect(throws: UsageError("--port needs a value")) { try ParsedArguments(["--port"], options: specs) }
    #expect(throws: UsageError("--quiet takes no value")) { try ParsedArguments(["--quiet=1"], options: specs) }
}

@Test func integerOptionsAreRangeChecked() throws {
    let parsed = try ParsedArguments(["--port", "70000"], options: [OptionSpec("port")])
    #expect(throws: UsageError.self) { try parsed.integer("port", default: 8080, in: 0...65535) }
    let absent = try ParsedArguments([], options: [OptionSpec("port")])
    #expect(try absent.integer("port", default: 8080, in: 0...65535) == 8080)
}
