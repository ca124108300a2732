import Foundation
import Testing

@testable import TabStageApp

/// examples/ at the package root, found from this file's path.
private func example(_ name: String) -> String {
    URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("examples").appendingPathComponent(name).path
}

@Suite struct CheckCommandTests {
    @Test func validFileIsOK() {
        let file = example("coffee.json")
        let result = runCLI(["check", file])
        #expect(result.code == 0)
        #expect(result.out == "\(file): ok (3 tabs, app 'coffee')\n")
        #expect(result.err.isEmpty)
    }

    @Test func brokenFilePrintsOneLinePerProblemAndExits1() {
        let file = example("broken.json")
        let result = runCLI(["check", file])
        #expect(result.code == 1)
        let lines = result.out.split(separator: "\n").map(String.init)
        #expect(lines.count == 12)
        #expect(lines.allSatisfy { $0.hasPrefix("\(file): ") })
        #expect(
            lines.first
                == "\(file): colour: unknown key; expected one of id, name, tint, layout, policies, "
                + "hidesBottomBarWhenPushed, tabs")
        #expect(
            lines.contains(
                "\(file): tabs[0].icon: unknown icon 'hom'; expected one of home, search, wallet, news, person, inbox, star, settings, bell, chart, or {\"path\": ..., \"fillRule\": ...}"
            ))
        #expect(lines.contains("\(file): tabs[1].id: duplicate tab id 'home'; tabs[0] has it already"))
    }

    @Test func everyFileIsCheckedAndAnyFailureFails() {
        let result = runCLI(["check", example("coffee.json"), example("broken.json")])
        #expect(result.code == 1)
        #expect(result.out.hasPrefix("\(example("coffee.json")): ok"))
    }

    @Test func unreadableFileExits1WithAClearMessage() {
        let missing = example("no-such-file.json")
        let result = runCLI(["check", missing])
        #expect(result.code == 1)
        #expect(result.err == "tabstage check: cannot read '\(missing)': no such file\n")
    }

    @Test func noFileIsAUsageError() {
        let result = runCLI(["check"])
        #expect(result.code == 2)
        #expect(result.err.contains("give at least one FILE"))
        #expect(result.err.contains("Usage: tabstage check"))
    }
}
