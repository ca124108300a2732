import Foundation
import HTTPTesting
import TabModel
import Testing

@testable import TabStageApp
@testable import TabStageCLI

/// Screen pages over HTTP (issue 34): the images at content-addressed URLs from memory, the files
/// read only from the app's folder, the hotspots as links and forms that work without a script.
@Suite struct ScreenRouteTests {
    static var stridePath: String { StageServer.repositoryRoot.appendingPathComponent("examples/stride.json").path }

    static func stride() throws -> AppDescription {
        let bytes = try Array(Data(contentsOf: URL(fileURLWithPath: stridePath)))
        return try AppLoading.load(json: bytes, filePath: stridePath).get()
    }

    static func strideServer() throws -> StageServer {
        try StageServer(application: .deterministic(apps: [try stride()] + BuiltInApps.all))
    }

    /// The `src` of the page's screen image.
    static func imageSource(_ page: TestResponse) -> String? {
        guard let image = page.text.range(of: "<img class=\"screen-image\" src=\"") else { return nil }
        return String(page.text[image.upperBound...].prefix { $0 != "\"" })
    }

    @Test func aScreensImageIsServedFromItsContentHashAndKeptAYear() throws {
        let visitor = try Self.strideServer().visitor()
        let page = try visitor.get("/stride/bottom/today?appearance=light")
        #expect(page.status == 200)
        let source = try #require(Self.imageSource(page))
        #expect(source.hasPrefix("/screens/") && source.hasSuffix(".png"))
        #expect(page.text.contains("srcset=\"\(source) 2x\""))
        let image = try visitor.get(source)
        #expect(image.status == 200)
        #expect(image.header("Content-Type") == "image/png")
        #expect(image.header("Cache-Control") == "public, max-age=31536000, immutable")
        let file = try Data(
            contentsOf: StageServer.repositoryRoot.appendingPathComponent("examples/screens/today@2x.png"))
        #expect(image.body == Array(file))
        #expect(try visitor.get(source, headers: [("If-None-Match", image.header("ETag") ?? "")]).status == 304)
        // Only names the served apps' images have: nothing reaches the disk.
        for path in [
            "/screens/0000000000000000-1.png", "/screens/..%2Fexamples%2Fstride.json", "/screens/today@2x.png",
        ] {
            #expect(try visitor.get(path).status == 404, "\(path)")
        }
    }

    @Test func withTheAppearanceLeftToTheSystemTheDarkImageIsTheBrowsersChoice() throws {
        let visitor = try Self.strideServer().visitor()
        let page = try visitor.get("/stride/bottom/today").text
        #expect(page.contains("<picture><source media=\"(prefers-color-scheme: dark)\" srcset=\"/screens/"))
        let dark = try visitor.get("/stride/bottom/today?appearance=dark")
        #expect(dark.text.contains("<picture><img class=\"screen-image\""), "one image, the dark one")
        #expect(Self.imageSource(dark) != Self.imageSource(try visitor.get("/stride/bottom/today?appearance=light")))
    }

    @Test func hotspotsPushADetailGoBackSelectATabAndCountWithoutAScript() throws {
        let visitor = try Self.strideServer().visitor()
        let today = try visitor.get("/stride/bottom/today")
        // Reading order: Start workout (y 256), add water (464), plans (548).
        let labels = ["Start workout", "Add a glass of water", "See your plans"]
        let places = labels.compactMap {
            today.text.range(of: "<span class=\"visually-hidden\">\($0)</span>")?.lowerBound
        }
        #expect(places.count == 3 && places == places.sorted())
        #expect(today.text.contains("<a class=\"hotspot\" data-stage-link href=\"/stride/bottom/today/workout\">"))
        #expect(today.text.contains("<a class=\"hotspot\" data-tap href=\"/stride/bottom/plans\">"))
        let workout = try visitor.get("/stride/bottom/today/workout")
        #expect(workout.status == 200)
        #expect(workout.text.contains("<a class=\"hotspot\" data-stage-link href=\"/stride/bottom/today\">"))
        #expect(workout.text.contains("alt=\"A workout under way"))
        // The + posts the page's increment: the count is the tab's badge.
        let posted = try visitor.post("/stride/bottom/today/action", form: [("action", "increment")])
        #expect(posted.status == 303)
        let after = try visitor.get("/stride/bottom/today")
        #expect(after.text.contains("data-count=\"1\""))
        #expect(after.text.contains("class=\"badge\""))
    }

    @Test func theExportGivesEachScreenAnImageAndEachHotspotACommentedButton() throws {
        let export = try Self.strideServer().visitor().get("/stride/export.swift").text
        #expect(export.contains("Image(\"today\")  // screens/today@2x.png, 390×720 points"))
        #expect(export.contains(".accessibilityLabel(\"Today: the day's goal"))
        #expect(
            export.contains(
                "// Button(\"Start workout\") { } at (16, 256), 358×52 points: push workout"))
        #expect(
            export.contains("// Button(\"See your plans\") { } at (16, 548), 358×60 points: tab plans"))
        #expect(!export.contains("Text(\"Today\")"))
        #expect(try swiftParseProblems(export) == nil)
    }

    @Test func theSnapshotToolsPrototypeSectionListsTheScreenItsImagesFingerprintAndHotspots() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tabstage-screen-snap-\(UUID())")
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let list = folder.appendingPathComponent("list.txt")
        try
            "GET /stride/bottom/today  # as: today\nPOST /stride/bottom/today/action action=increment\nGET /stride/bottom/today/workout  # as: workout\n"
            .write(to: list, atomically: true, encoding: .utf8)
        let result = runCLI([
            "snapshot", "test", "--app", Self.stridePath, "--requests", list.path, "--dir", folder.path + "/snaps",
        ])
        #expect(result.out.hasSuffix("3 new, 0 obsolete\n"), "\(result.out)\(result.err)")
        let today = try String(contentsOf: folder.appendingPathComponent("snaps/today.txt"), encoding: .utf8)
        let fingerprint = try #require(
            Self.imageSource(try Self.strideServer().visitor().get("/stride/bottom/today?appearance=light"))
        )
        .dropFirst("/screens/".count).dropLast(".png".count)
        #expect(
            today.contains("screen:\n  count 0\n  image screens/today@2x.png (390×720 points at 2x), \(fingerprint)\n"))
        #expect(today.contains("  image screens/today-dark@2x.png (390×720 points at 2x, dark), "))
        #expect(
            today.contains(
                "  hotspot \"Start workout\" at (16, 256) 358×52: push workout\n"
                    + "  hotspot \"Add a glass of water\" at (314, 464) 44×44: increment\n"
                    + "  hotspot \"See your plans\" at (16, 548) 358×60: tab plans\n"))
        let workout = try String(contentsOf: folder.appendingPathComponent("snaps/workout.txt"), encoding: .utf8)
        #expect(workout.contains("screen:\n  count 1\n  image screens/workout@2x.png"))
        #expect(workout.contains("  hotspot \"Finish\" at (16, 620) 358×52: back\n"))
    }

    @Test func aScreenPageSnapshot() throws {
        let visitor = try Self.strideServer().visitor()
        assertSnapshot(of: try visitor.get("/stride/bottom/today"))
    }

    /// An app file in a folder of the test's own, with `files` beside it.
    func load(image: String, files: (URL) throws -> Void) throws -> [String] {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tabstage-screens-\(UUID())")
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(
            at: folder.appendingPathComponent("app"), withIntermediateDirectories: true)
        try files(folder)
        let json = """
            {"id": "one", "name": {"en": "One"}, "tint": "#FF9500", "tabs": [
             {"id": "a", "title": {"en": "A"}, "icon": "home", "page": {"kind": "screen", "image": "\(image)", "alt": {"en": "A"}}},
             {"id": "b", "title": {"en": "B"}, "icon": "star", "page": {"kind": "text"}}]}
            """
        let path = folder.appendingPathComponent("app/one.json").path
        switch AppLoading.load(json: Array(json.utf8), filePath: path) {
        case .success: return []
        case .failure(let report): return report.problems.map(\.message)
        }
    }

    @Test func anImageOutsideTheAppsFolderOrBehindALinkIsRefused() throws {
        let png = try Data(
            contentsOf: StageServer.repositoryRoot.appendingPathComponent("examples/screens/plans@2x.png"))
        func write(_ folder: URL) throws {
            try png.write(to: folder.appendingPathComponent("outside.png"))
            try png.write(to: folder.appendingPathComponent("app/inside.png"))
            try FileManager.default.createSymbolicLink(
                atPath: folder.appendingPathComponent("app/link.png").path, withDestinationPath: "inside.png")
            try FileManager.default.createSymbolicLink(
                atPath: folder.appendingPathComponent("app/up").path, withDestinationPath: folder.path)
        }
        #expect(try load(image: "inside.png", files: write) == [])
        #expect(
            try load(image: "../outside.png", files: write) == [
                "'../outside.png': the path leaves the app file's folder"
            ])
        #expect(
            try load(image: "/etc/hostname", files: write) == ["'/etc/hostname': the path leaves the app file's folder"]
        )
        #expect(try load(image: "link.png", files: write) == ["'link.png': a symbolic link; give the file itself"])
        #expect(
            try load(image: "up/outside.png", files: write) == [
                "'up/outside.png': the path leaves the app file's folder"
            ])
        #expect(try load(image: "missing.png", files: write) == ["'missing.png': no such file"])
    }
}
