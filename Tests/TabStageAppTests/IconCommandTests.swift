import Foundation
import Testing

@testable import TabStageApp

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
        (["icon", "--output", "x.png"], "give --name NAME or --path-data D"),
        (["icon", "--name", "home", "--path-data", "M0 0", "--output", "x.png"], "not both"),
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

    @Test func anUnwritableOutputIsAFailureNotACrash() {
        let result = runCLI(["icon", "--name", "bell", "--output", "/nonexistent-dir/bell.png"])
        #expect(result.code == 1)
        #expect(result.err.contains("cannot write /nonexistent-dir/bell.png"))
    }
}
