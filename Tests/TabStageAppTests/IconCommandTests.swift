import Foundation
import TabModel
import Testing

@testable import Snapshots
@testable import TabStageApp
@testable import TabStageCLI

struct IconCommandTests {
    private func temporaryDirectory() throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "tabstage-icon-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory
    }

    private func pngSize(_ url: URL) throws -> (width: Int, height: Int) {
        let bytes = [UInt8](try Data(contentsOf: url))
        #expect(Array(bytes.prefix(8)) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        func word(_ offset: Int) -> Int { bytes[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) } }
        return (word(16), word(20))
    }

    /// What a designer can name, one a line, for scripts (scripts/icon-sheet reads it).
    @Test func listPrintsEveryBuiltInIconsName() {
        let result = runCLI(["icon", "--list"])
        #expect(result.code == 0)
        #expect(result.out.split(separator: "\n").map(String.init) == BuiltInIcon.allCases.map(\.rawValue))
        #expect(result.out.split(separator: "\n").count >= 40)
        #expect(runCLI(["icon", "--list", "--scale", "2"]).code == 2)
    }

    @Test func writesABuiltInIconAtTheRequestedScale() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let output = directory.appendingPathComponent("home.png")
        let result = runCLI(["icon", "--name", "home", "--scale", "2", "--tint", "#3366FF", "--output", output.path])
        #expect(result.code == 0, "\(result.err)")
        let size = try pngSize(output)
        #expect(size.width == 160 && size.height == 160)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["home.png"])
    }

    @Test func writesInlinePathDataAndMasks() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let plain = directory.appendingPathComponent("plain.png")
        let mask = directory.appendingPathComponent("mask.png")
        let square = "M4 4h16v16H4z"
        #expect(
            runCLI([
                "icon", "--path-data", square, "--fill-rule", "evenodd", "--state", "unselected", "--output",
                plain.path,
            ]).code == 0)
        #expect(runCLI(["icon", "--path-data", square, "--mask", "--scale=3", "--output", mask.path]).code == 0)
        #expect(try pngSize(mask).width == 240)
        #expect(try Data(contentsOf: plain) != Data(contentsOf: mask))
    }

    @Test func badPathDataNamesTheOffsetAndWritesNothing() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let output = directory.appendingPathComponent("bad.png")
        let result = runCLI(["icon", "--path-data", "M1 2 L3 x", "--output", output.path])
        #expect(result.code == 1)
        #expect(result.err.contains("byte 8"))
        #expect(!FileManager.default.fileExists(atPath: output.path))
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).isEmpty)
    }

    @Test(arguments: [
        (["icon", "--output", "x.png"], "give --name NAME, --path-data D or --app FILE --tab ID"),
        (["icon", "--name", "home", "--path-data", "M0 0", "--output", "x.png"], "not --name and --path-data"),
        (["icon", "--app", "bank.json", "--output", "x.png"], "--app FILE needs --tab ID"),
        (["icon", "--name", "home", "--tab", "pay", "--output", "x.png"], "--tab goes with --app FILE"),
        (["icon", "--name", "home"], "--output FILE is required"),
        (["icon", "--name", "rocket", "--output", "x.png"], "no built-in icon named 'rocket'"),
        (["icon", "--name", "home", "--scale", "4", "--output", "x.png"], "--scale must be"),
        (["icon", "--name", "home", "--tint", "orange", "--output", "x.png"], "--tint must be a colour"),
        (["icon", "--name", "home", "--state", "on", "--output", "x.png"], "--state must be one of"),
        (
            ["icon", "--name", "home", "--fill-rule", "evenodd", "--output", "x.png"],
            "--fill-rule goes with --path-data"
        ),
        (["icon", "--path-data", "M0 0", "--fill-rule", "winding", "--output", "x.png"], "--fill-rule must be one of"),
    ])
    func usageErrorsExitWithStatus2(arguments: [String], message: String) {
        let result = runCLI(arguments)
        #expect(result.code == 2)
        #expect(result.err.contains(message), "\(result.err)")
        #expect(result.err.contains("Usage: tabstage icon"))
    }

    /// The bank example's tab `tab` as `tabstage icon --app` draws it, and as the server answers
    /// `path` for the same app.
    private func iconFromBothSides(_ arguments: [String], path: String) throws -> (
        cli: [UInt8], server: [UInt8]
    ) {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let output = directory.appendingPathComponent("icon.png")
        let file = StageServer.repositoryRoot.appendingPathComponent("examples/bank.json")
        let result = runCLI(["icon", "--app", file.path] + arguments + ["--output", output.path])
        #expect(result.code == 0, "\(result.err)")
        let loaded = try #require(
            AppFile.apps(adding: file.path, command: "test", console: Console(out: { _ in }, err: { _ in })))
        let stage = try StageServer(application: .deterministic(apps: loaded))
        let answer = try stage.visitor().get(path)
        #expect(answer.status == 200)
        return ([UInt8](try Data(contentsOf: output)), answer.body)
    }

    @Test func anAppsTabIsDrawnAsTheServerDrawsIt() throws {
        // Inline path data, selected: the app's tint and icon style.
        let selected = try iconFromBothSides(
            ["--tab", "pay", "--scale", "2"], path: "/icons/apps/bank/pay/tinted@2x.png")
        #expect(selected.cli.elementsEqual(selected.server), "the CLI's PNG differs from the server's")
        // A built-in icon, unselected: the server's grey is the command's default colour.
        let unselected = try iconFromBothSides(
            ["--tab", "find", "--state", "unselected"], path: "/icons/search/unselected@1x.png")
        #expect(unselected.cli.elementsEqual(unselected.server), "the CLI's PNG differs from the server's")
    }

    @Test func anUnknownTabOfAnAppNamesTheTabsItHas() throws {
        let file = StageServer.repositoryRoot.appendingPathComponent("examples/bank.json")
        let result = runCLI(["icon", "--app", file.path, "--tab", "payy", "--output", "/tmp/never.png"])
        #expect(result.code == 1)
        #expect(result.err.contains("has no tab 'payy' (its tabs: home, cards, pay,"), "\(result.err)")
    }

    @Test func theDefaultUnselectedFillIsTheServersGrey() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let output = directory.appendingPathComponent("home.png")
        #expect(runCLI(["icon", "--name", "home", "--state", "unselected", "--output", output.path]).code == 0)
        let stage = try StageServer()
        let answer = try stage.visitor().get("/icons/home/unselected@1x.png")
        #expect(
            [UInt8](try Data(contentsOf: output)).elementsEqual(answer.body), "the CLI's PNG differs from the server's")
    }

    @Test func anUnwritableOutputIsAFailureNotACrash() {
        let result = runCLI(["icon", "--name", "bell", "--output", "/nonexistent-dir/bell.png"])
        #expect(result.code == 1)
        #expect(result.err.contains("cannot write /nonexistent-dir/bell.png"))
    }
}
