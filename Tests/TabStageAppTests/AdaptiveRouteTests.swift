import Foundation
import HTTPTesting
import TabModel
import Testing

@testable import Snapshots
@testable import TabStageApp
@testable import TabStageCLI

/// Seven counters t1…t7 behind the bottom bar; t2, t5, t6 and t7 may move, t3 may be hidden.
private func customizableApp() -> AppDescription {
    var tabs = (1...7).map { index in
        TabDescription(
            id: "t\(index)", title: LocalizedText(en: "Tab \(index)", zhHant: "分頁 \(index)"), icon: .builtIn(.star),
            page: PageDescription(content: .counter(CounterPage(label: LocalizedText(en: "Count", zhHant: "計數")))))
    }
    tabs[2].allowsHiding = true
    return AppDescription(
        id: "many", name: LocalizedText(en: "Many", zhHant: "多"), tint: "#00AA11", defaultLayout: .bottom,
        policies: .uiKit, tabs: tabs, customizableTabIDs: ["t2", "t5", "t6", "t7"])
}

/// `swiftc -parse` on the text: nil when it parses, else what the compiler said.
func swiftParseProblems(_ source: String) throws -> String? {
    let file = FileManager.default.temporaryDirectory.appendingPathComponent("export-\(UUID().uuidString).swift")
    try source.write(to: file, atomically: true, encoding: .utf8)
    defer { try? FileManager.default.removeItem(at: file) }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["swiftc", "-parse", file.path]
    let errors = Pipe()
    process.standardError = errors
    process.standardOutput = errors
    try process.run()
    let output = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    return process.terminationStatus == 0 ? nil : output
}

@Suite struct AdaptiveRouteTests {
    @Test func theEditedMoreListShowsTheTabMovedOutOfTheBar() throws {
        let visitor = try StageServer(application: .deterministic(apps: [customizableApp()] + BuiltInApps.all))
            .visitor()
        _ = try visitor.get("/many/bottom/t2")
        let more = try visitor.get("/many/bottom/_more")
        #expect(more.text.contains("href=\"/many/bottom/_more/edit\""))
        _ = try visitor.get("/many/bottom/_more/edit")
        let moved = try visitor.post(
            "/many/bottom/_more/action", form: [("action", "up"), ("tab", "t6"), ("count", "2")])
        #expect(moved.status == 303)
        #expect(moved.header("Location") == "/many/bottom/_more/edit")
        assertSnapshot(of: try visitor.get("/many/bottom/_more/edit"), named: "edit")
        let done = try visitor.post("/many/bottom/_more/action", form: [("action", "done")])
        #expect(done.header("Location") == "/many/bottom/_more")
        let edited = try visitor.get("/many/bottom/_more")
        assertSnapshot(of: edited, named: "more")
        // t6 passed t5 and t2 (t3 and t4 keep their places): t2 is in More now, t6 in the bar. The
        // More list is on screen, so no row is current.
        #expect(edited.text.contains("class=\"more-row\" data-tab=\"t2\" href=\"/many/bottom/t2\">"))
        #expect(!edited.text.contains("class=\"more-row\" data-tab=\"t6\""))
        #expect(edited.text.contains("class=\"tab\" data-tab=\"t6\" href=\"/many/bottom/t6\""))
        let log = try visitor.get("/many/events.json").text
        #expect(log.contains("willBeginCustomizing [t2, t5, t6, t7]"))
        #expect(log.contains("didEndCustomizing(changed: true)"))
    }

    @Test func aHiddenTabIsNotOpenedByItsURLOrADetailsURLAndThePageSaysWhy() throws {
        var app = customizableApp()
        app.tabs[2].page = PageDescription(
            content: .news(items: [
                PageItem(
                    id: "a", title: LocalizedText(en: "A", zhHant: "甲"), detail: LocalizedText(en: "Body", zhHant: "文"))
            ]))
        let visitor = try StageServer(application: .deterministic(apps: [app] + BuiltInApps.all)).visitor()
        _ = try visitor.get("/many/bottom/t1")
        _ = try visitor.post("/many/bottom/_more/action", form: [("action", "hide"), ("tab", "t3")])
        _ = try visitor.post("/many/bottom/_more/action", form: [("action", "done")])
        _ = try visitor.get("/many/bottom/t2")
        for path in ["/many/bottom/t3", "/many/bottom/t3/a", "/many/vertical/t3"] {
            let opened = try visitor.get(path)
            #expect(opened.status == 303, "\(path)")
            let shown = try #require(opened.header("Location"))
            #expect(shown == path.replacingOccurrences(of: "t3", with: "t2").replacingOccurrences(of: "/a", with: ""))
            #expect(try visitor.get(shown).text.contains("Tab 3 is hidden. Show it again from Edit."), "\(path)")
        }
        let log = try visitor.get("/many/events.json").text
        #expect(log.contains("selection unchanged (url): t3 is hidden, so only code can select it"))
        #expect(!log.contains("guard t3"))
        #expect(!log.contains("push t3"))
    }

    @Test func theAdaptiveEditListOffersHideOnlyToItsSidebarForm() throws {
        let visitor = try StageServer(application: .deterministic(apps: [customizableApp()] + BuiltInApps.all))
            .visitor()
        _ = try visitor.get("/many/adaptive/t1")
        let adaptive = try visitor.get("/many/adaptive/_more/edit").text
        #expect(
            adaptive.contains(
                "<button type=\"submit\" class=\"button-quiet sidebar-only\" name=\"action\" value=\"hide\""))
        let bottom = try visitor.get("/many/bottom/_more/edit").text
        #expect(bottom.contains("<button type=\"submit\" class=\"button-quiet\" name=\"action\" value=\"hide\""))
        let css = try String(
            contentsOf: StageServer.repositoryRoot.appendingPathComponent("Public/css/tabstage.css"), encoding: .utf8)
        #expect(css.contains("@media (max-width: 743px) { .device-adaptive .sidebar-only { display: none; } }"))
    }

    @Test func aTabThatHidesButDoesNotMoveIsExportedAsAutomaticSayingSwiftUILetsItMoveToo() throws {
        let visitor = try StageServer(application: .deterministic(apps: [customizableApp()] + BuiltInApps.all))
            .visitor()
        let source = try visitor.get("/many/export.swift").text
        let t3 = try #require(source.range(of: "\"many.t3\")"))
        let next = source[t3.upperBound...].prefix(240)
        #expect(next.contains("SwiftUI has no such behaviour, so it may move too."))
        #expect(next.contains(".customizationBehavior(.automatic, for: .sidebar, .tabBar)"))
    }

    @Test func aStepTheRulesRefuseSaysWhyAndABadOneIsABadRequest() throws {
        let visitor = try StageServer(application: .deterministic(apps: [customizableApp()] + BuiltInApps.all))
            .visitor()
        _ = try visitor.get("/many/bottom/_more/edit")
        _ = try visitor.post("/many/bottom/_more/action", form: [("action", "hide"), ("tab", "t4")])
        #expect(try visitor.get("/many/bottom/_more/edit").text.contains("The tab &#39;t4&#39; cannot be hidden."))
        let bad = try visitor.post(
            "/many/bottom/_more/action", form: [("action", "up"), ("tab", "t2"), ("count", "99")])
        #expect(bad.status == 400)
        #expect(try visitor.get("/many/vertical/_more/edit").status == 404)
    }

    @Test func theAdaptivePageWritesItsBarBeforeThePageWithTheSectionsAndEdit() throws {
        let page = try StageServer().visitor().get("/restaurant/adaptive/home").text
        let bar = try #require(page.range(of: "<nav class=\"tab-bar tab-bar-adaptive\""))
        let content = try #require(page.range(of: "<section id=\"page\""))
        #expect(bar.lowerBound < content.lowerBound)
        #expect(page.contains("aria-controls=\"tab-section-yours\">Yours</button><ul id=\"tab-section-yours\">"))
        #expect(page.contains("<a class=\"edit-tabs\" href=\"/restaurant/adaptive/_more/edit\">Edit</a>"))
    }

    @Test func theExportIsSwiftThatParses() throws {
        let visitor = try StageServer().visitor()
        let export = try visitor.get("/restaurant/export.swift")
        #expect(export.status == 200)
        #expect(export.header("Content-Type") == "text/plain; charset=utf-8")
        assertSnapshot(of: export)
        for needed in [
            "TabSection(\"Yours\")", ".badge(3)", ".customizationID(\"restaurant.news\")",
            ".tabViewStyle(.sidebarAdaptable)", "Tab(\"Home\", systemImage: \"house\")",
        ] {
            #expect(export.text.contains(needed), "\(needed)")
        }
        #expect(try swiftParseProblems(export.text) == nil)
    }

    @Test func anExportedTitleWithQuotesAndInterpolationStaysOneString() throws {
        var app = customizableApp()
        app.tabs[0].title = LocalizedText(en: "Say \"hi\" \\(now)", zhHant: "嗨")
        let visitor = try StageServer(application: .deterministic(apps: [app])).visitor()
        let export = try visitor.get("/many/export.swift").text
        #expect(export.contains(#"Tab("Say \"hi\" \\(now)", systemImage: "star")"#))
        #expect(try swiftParseProblems(export) == nil)
    }
}
