import Colour
import Foundation
import TabModel
import Testing
import Views

@testable import Snapshots
@testable import TabStageApp
@testable import TabStageCLI

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
        #expect(result.out == "\(file): ok (3 tabs, app 'coffee', languages en, zh-Hant)\n")
        #expect(result.err.isEmpty)
    }

    /// The screens of an app are read from its file's folder, whichever folder check runs in,
    /// and said one line each.
    @Test func checkReadsAnAppsScreensBesideItsFileAndSaysWhatItRead() throws {
        let file = example("stride.json")
        let result = runCLI(["check", file])
        #expect(result.code == 0, "\(result.out)")
        #expect(
            result.out.contains(
                "\(file): screen 'today': 3 images (screens/today@2x.png, 390×720 points), 4 hotspots, details workout\n"
                    + "\(file): screen 'plans': 1 image (screens/plans@2x.png, 390×720 points), 1 hotspot\n"))
        // The same file elsewhere, without its screens: each missing image is a located problem.
        let copy = FileManager.default.temporaryDirectory.appendingPathComponent("stride-\(UUID()).json")
        defer { try? FileManager.default.removeItem(at: copy) }
        try FileManager.default.copyItem(atPath: file, toPath: copy.path)
        let moved = runCLI(["check", copy.path])
        #expect(moved.code == 1)
        #expect(
            moved.out.contains(
                "\(copy.path):16:11: tabs[0] 'today'.page.image[0]: 'screens/today@2x.png': no such file\n"))
    }

    @Test func brokenFilePrintsOneLinePerProblemAndExits1() {
        let file = example("broken.json")
        let result = runCLI(["check", file])
        #expect(result.code == 1)
        let lines = result.out.split(separator: "\n").map(String.init)
        let icons = BuiltInIcon.allCases.map(\.rawValue).joined(separator: ", ")
        let kinds = "text, counter, search, wallet, news, profile, checklist, settings, screen"
        #expect(
            lines == [
                "\(file):2:9: id: 'Broken App' is not a valid id; use 1 to 32 characters from a-z, 0-9 and '-' (ids appear in URLs)",
                "\(file):3:11: name: missing 'zh-Hant'",
                "\(file):5:11: tint: 'orange' is not a colour; expected #RRGGBB, such as #FF9500",
                "\(file):6:13: layout: unknown layout 'sideways'; expected one of vertical, bottom, adaptive",
                "\(file):7:13: colour: unknown key; expected one of id, name, tint, layout, iconStyle, policies, hidesBottomBarWhenPushed, tabs, sections, customizable, showsDemos, textTint, languages",
                "\(file):11:23: tabs[0] 'home'.title.en: empty; a title needs 1 to 24 characters",
                "\(file):12:15: tabs[0] 'home'.icon: unknown icon 'hom'; did you mean 'home'? Expected one of \(icons), or {\"path\": ..., \"fillRule\": ...}",
                "\(file):16:13: tabs[1] 'home'.id: duplicate tab id 'home'; tabs[0] has it already",
                "\(file):17:23: tabs[1] 'home'.title.en: too long (35 characters); a title has at most 24",
                "\(file):18:24: tabs[1] 'home'.icon.path: empty path data; give SVG path data such as \"M2 2h20v20H2z\"",
                "\(file):19:24: tabs[1] 'home'.requiresLogin: expected a boolean, found a string",
                "\(file):20:24: tabs[1] 'home'.page.kind: unknown page kind 'map'; expected one of \(kinds)",
            ])
    }

    /// Path data is parsed with everything else, so fixing the other problems reveals no more.
    @Test func badPathDataIsReportedWithTheOtherProblems() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("tabstage-check-\(getpid()).json")
        defer { try? FileManager.default.removeItem(at: file) }
        let json = """
            {"id": "bank", "name": {"en": "Bank", "zh-Hant": "銀行"}, "tint": "#1E7B3A",
             "tabs": [
               {"id": "home", "title": {"en": "Home"}, "icon": {"path": "M0 0 Q"}, "page": {"kind": "text"}},
               {"id": "pay", "title": {"en": "Pay", "zh-Hant": "付款"}, "icon": "wallet", "page": {"kind": "text"}}
             ]}
            """
        try Data(json.utf8).write(to: file)
        let result = runCLI(["check", file.path])
        #expect(result.code == 1)
        #expect(
            result.out.split(separator: "\n").map(String.init) == [
                "\(file.path):3:28: tabs[0] 'home'.title: missing 'zh-Hant'",
                "\(file.path):3:61: tabs[0] 'home'.icon.path: after 'Q', expected a number",
            ])
    }

    @Test func everyFileIsCheckedAndAnyFailureFails() {
        let result = runCLI(["check", example("coffee.json"), example("broken.json")])
        #expect(result.code == 1)
        #expect(result.out.hasPrefix("\(example("coffee.json")): ok"))
    }

    /// A valid app that draws badly is ok, with a warning a line: a tint too light for text, a
    /// title its bar cuts (in each language and layout that cuts it).
    @Test func aLightTintAndALongTitleAreWarnedAboutAfterOk() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("tabstage-warn-\(getpid()).json")
        defer { try? FileManager.default.removeItem(at: file) }
        let json = """
            {"id": "sun", "name": {"en": "Sun", "zh-Hant": "太陽"}, "tint": "#FFCC00",
             "tabs": [
               {"id": "home", "title": {"en": "Home", "zh-Hant": "首頁"}, "icon": "home", "page": {"kind": "text"}},
               {"id": "long", "title": {"en": "A title of 24 characters", "zh-Hant": "長"}, "icon": "star",
                "page": {"kind": "text"}}
             ]}
            """
        try Data(json.utf8).write(to: file)
        let result = runCLI(["check", file.path])
        #expect(result.code == 0)
        let cut = "'A title of 24 characters' is cut in the"
        let whole = "characters show); its link carries it whole as tooltip and accessible name"
        #expect(
            result.out.split(separator: "\n").map(String.init) == [
                "\(file.path): ok (2 tabs, app 'sun', languages en, zh-Hant)",
                "\(file.path): warning: tint: #FFCC00 has 1.3:1 against the bar's selected cell (#ECECF1), under "
                    + "the 4.5:1 text needs, so text in the tint shows in the darker #826800: links, the selected "
                    + "tab's title, buttons, the More list's current row and the event log's chosen filter (icons, "
                    + "the glow and focus rings keep the tint). To choose that colour, add \"textTint\": "
                    + "\"#RRGGBB\" (at least 4.5:1 against #ECECF1)",
                // Two tabs share the bottom bar: 24 Latin characters fit in half of it.
                "\(file.path): warning: tabs[1] 'long'.title.en: \(cut) vertical bar (about 11 of its 24 \(whole)",
            ])
    }

    /// Issue 36: a chosen text colour silences the warning and is the pages' text colour; one
    /// too light to read is a located problem with its ratio.
    @Test func aTextTintIsCheckedAndUsed() throws {
        let file = URL(fileURLWithPath: NSTemporaryDirectory()).appending(path: "tabstage-texttint-\(getpid()).json")
        defer { try? FileManager.default.removeItem(at: file) }
        func app(_ textTint: String) -> String {
            """
            {"id": "sun", "name": {"en": "Sun", "zh-Hant": "太陽"}, "tint": "#FFCC00",
             "textTint": "\(textTint)",
             "tabs": [
               {"id": "home", "title": {"en": "Home", "zh-Hant": "首頁"}, "icon": "home", "page": {"kind": "text"}},
               {"id": "news", "title": {"en": "News", "zh-Hant": "新聞"}, "icon": "news", "page": {"kind": "text"}}
             ]}
            """
        }
        try Data(app("#6B5500").utf8).write(to: file)
        let chosen = runCLI(["check", file.path])
        #expect(chosen.code == 0)
        #expect(
            chosen.out == "\(file.path): ok (2 tabs, app 'sun', languages en, zh-Hant)\n",
            "no warning once the text colour is chosen")
        let loaded = try AppDescription.load(jsonText: app("#6B5500")).get()
        #expect(TintPalette(app: loaded).text == RGBColor(hex: "#6B5500"))
        #expect(String(decoding: ThemeStylesheet.css(for: loaded), as: UTF8.self).contains("--tint-text: #6B5500"))
        try Data(app("#FFD60A").utf8).write(to: file)
        let light = runCLI(["check", file.path])
        #expect(light.code == 1)
        #expect(
            light.out
                == "\(file.path):2:14: textTint: #FFD60A has 1.2:1 against the bar's selected cell (#ECECF1); "
                + "text needs 4.5:1, so choose a darker colour\n")
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
