import Testing

@testable import TabModel

/// Screen pages (docs/app-format.md, "Screens"): the loader's rules, each breaking one thing, with
/// image files given by a reader of the test's own (the model reads no file).
@Suite struct ScreenPageTests {
    /// The first bytes of a PNG of `width` × `height` pixels: signature and IHDR.
    static func pngHeader(width: Int, height: Int) -> [UInt8] {
        func bigEndian(_ value: Int) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: value >> (24 - 8 * $0)) } }
        return [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13] + Array("IHDR".utf8) + bigEndian(width)
            + bigEndian(height) + [8, 6, 0, 0, 0]
    }

    /// A JPEG's start, an APP0 segment, then a baseline frame header of `width` × `height`.
    static func jpegHeader(width: Int, height: Int) -> [UInt8] {
        [0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x04, 0x00, 0x00, 0xFF, 0xC0, 0x00, 0x11, 0x08]
            + [UInt8(height >> 8), UInt8(height & 0xFF), UInt8(width >> 8), UInt8(width & 0xFF), 0x03]
    }

    /// Files by name: a 780 × 1440 PNG (390 × 720 points at 2x) unless given otherwise.
    static func reader(_ files: [String: [UInt8]]) -> (String) -> Result<ScreenFileInfo, ScreenFileProblem> {
        { name in
            guard let bytes = files[name] else { return .failure(.missing) }
            return ScreenFileInfo.of(bytes, fingerprint: "f\(bytes.count)")
        }
    }

    static let standardFiles: [String: [UInt8]] = [
        "home@2x.png": pngHeader(width: 780, height: 1440), "home-dark@2x.png": pngHeader(width: 780, height: 1440),
        "detail@2x.png": pngHeader(width: 780, height: 1440), "small.png": pngHeader(width: 100, height: 100),
        "photo.jpg": jpegHeader(width: 1170, height: 2160),
    ]

    static func app(page: String, files: [String: [UInt8]] = standardFiles) -> Result<AppDescription, ValidationReport>
    {
        let json = """
            {"id": "demo", "name": {"en": "Demo"}, "tint": "#FF9500", "layout": "bottom", "tabs": [
             {"id": "home", "title": {"en": "Home"}, "icon": "home", "page": \(page)},
             {"id": "plans", "title": {"en": "Plans"}, "icon": "calendar", "page": {"kind": "text"}}]}
            """
        return AppDescription.load(jsonText: json, screenFile: reader(files))
    }

    /// The problems of a screen page, as `path: message` (the path after `tabs[0] 'home'.page.`).
    static func problems(_ page: String, files: [String: [UInt8]] = standardFiles) -> [String] {
        guard case .failure(let report) = app(page: page, files: files) else { return [] }
        return report.problems.map { "\($0.path.replacing("tabs[0].page.", with: "")): \($0.message)" }
    }

    static func spot(_ action: String, x: Int = 10, y: Int = 20, width: Int = 100, height: Int = 44) -> String {
        "{\"x\": \(x), \"y\": \(y), \"width\": \(width), \"height\": \(height), \"label\": {\"en\": \"Go\"}, \(action)}"
    }

    static let detail = """
        "details": [{"id": "more", "title": {"en": "More"}, "image": "detail@2x.png", "alt": {"en": "A detail"},
                     "hotspots": [\(spot("\"back\": true"))]}]
        """

    @Test func aScreenPageLoadsWithItsImagesHotspotsDetailsAndCounter() throws {
        let page = """
            {"kind": "screen", "image": ["home@2x.png", {"file": "home-dark@2x.png", "appearance": "dark"}],
             "alt": {"en": "Home"}, "counter": {"maximum": 5},
             "hotspots": [\(Self.spot("\"push\": \"more\"")), \(Self.spot("\"tab\": \"plans\"", y: 100)),
                          \(Self.spot("\"action\": \"increment\"", y: 200))], \(Self.detail)}
            """
        let app = try Self.app(page: page).get()
        guard case .screen(let screen) = app.tabs[0].page.content else {
            Issue.record("not a screen page")
            return
        }
        #expect(screen.screen.size.width == 390 && screen.screen.size.height == 720)
        #expect(screen.screen.images.map(\.scale) == [2, 2])
        #expect(screen.screen.image(for: .phone, appearance: .dark).file == "home-dark@2x.png")
        #expect(screen.screen.image(for: .tablet, appearance: .light).file == "home@2x.png")
        #expect(screen.screen.hotspots.map(\.action) == [.push("more"), .tab("plans"), .pageAction(.increment)])
        #expect(screen.details.map(\.id) == ["more"])
        #expect(screen.counter?.maximum == 5)
        #expect(app.tabs[0].page.content.items.map(\.id) == ["more"], "a detail is what the tab may push")
        let state = app.tabs[0].page.initialState
        #expect(state == .screen(count: 0))
        #expect(app.tabs[0].page.apply(.increment, to: state) == .success(.screen(count: 1)))
        #expect(app.tabs[0].page.derivedBadge(for: .screen(count: 3)) == .count(3))
    }

    @Test func aScaleIsDeclaredByTheNameOrTheKey() throws {
        #expect(ScreenImage.scale(declaredBy: "screens/a@3x.png") == 3)
        #expect(ScreenImage.scale(declaredBy: "a.png") == 1)
        let app = try Self.app(
            page: #"{"kind": "screen", "image": {"file": "photo.jpg", "scale": 3}, "alt": {"en": "P"}}"#
        ).get()
        guard case .screen(let screen) = app.tabs[0].page.content else { return }
        #expect(screen.screen.images[0].format == .jpeg)
        #expect(screen.screen.size.width == 390 && screen.screen.size.height == 720)
    }

    @Test func aMissingFileIsAProblemAtItsName() {
        #expect(
            Self.problems(#"{"kind": "screen", "image": "gone.png", "alt": {"en": "G"}}"#) == [
                "image: 'gone.png': no such file"
            ])
    }

    @Test func aFileThatIsNotAPNGOrJPEGIsRefusedByItsBytesNotItsName() {
        let files = ["fake.png": Array("<svg xmlns='http://www.w3.org/2000/svg'/>".utf8)]
        #expect(
            Self.problems(#"{"kind": "screen", "image": "fake.png", "alt": {"en": "F"}}"#, files: files) == [
                "image: 'fake.png': not a PNG or JPEG file (its first bytes say neither)"
            ])
    }

    @Test func aFileTooLargeOrWithTooManyPixelsIsRefused() {
        var big = Self.pngHeader(width: 10, height: 10)
        big += [UInt8](repeating: 0, count: ScreenFileInfo.maximumBytes)
        let files = ["big.png": big, "huge.png": Self.pngHeader(width: 8000, height: 6000)]
        #expect(
            Self.problems(#"{"kind": "screen", "image": "big.png", "alt": {"en": "B"}}"#, files: files) == [
                "image: 'big.png': 8 MB; a screen image is at most 8 MB"
            ])
        #expect(
            Self.problems(#"{"kind": "screen", "image": "huge.png", "alt": {"en": "H"}}"#, files: files) == [
                "image: 'huge.png': 8000×6000 pixels; a screen image has at most 40 megapixels"
            ])
    }

    @Test func aHeaderDeclaringAnImpossibleSizeIsAProblemNotACrash() {
        // A PNG's IHDR holds 32-bit sizes: their product overflows a 64-bit integer.
        let widest = Int(UInt32.max)
        let files = [
            "vast.png": Self.pngHeader(width: widest, height: widest),
            "empty.png": Self.pngHeader(width: 0, height: 600), "flat.jpg": Self.jpegHeader(width: 640, height: 0),
        ]
        #expect(
            Self.problems(#"{"kind": "screen", "image": "vast.png", "alt": {"en": "V"}}"#, files: files) == [
                "image: 'vast.png': 4294967295×4294967295 pixels; a screen image has at most 40 megapixels"
            ])
        #expect(
            Self.problems(#"{"kind": "screen", "image": "empty.png", "alt": {"en": "E"}}"#, files: files) == [
                "image: 'empty.png': its header says 0×600 pixels; a screen image has at least one"
            ])
        #expect(
            Self.problems(#"{"kind": "screen", "image": "flat.jpg", "alt": {"en": "F"}}"#, files: files) == [
                "image: 'flat.jpg': its header says 640×0 pixels; a screen image has at least one"
            ])
    }

    @Test func anImageOfLessThanAPointAtItsScaleIsRefused() {
        let files = ["thin@3x.png": Self.pngHeader(width: 2, height: 900)]
        #expect(
            Self.problems(#"{"kind": "screen", "image": "thin@3x.png", "alt": {"en": "T"}}"#, files: files) == [
                "image: 'thin@3x.png': 2×900 pixels at 3x is 0×300 points; a screen is at least a point each way"
            ])
    }

    @Test func aHotspotOutsideItsImageIsRefusedWithTheImagesSize() {
        let page = """
            {"kind": "screen", "image": "home@2x.png", "alt": {"en": "H"},
             "hotspots": [\(Self.spot("\"tab\": \"plans\"", x: 300, width: 100))]}
            """
        #expect(
            Self.problems(page) == [
                "hotspots[0]: the hotspot (300, 20, 100×44) is not inside its image, 390×720 points"
            ])
    }

    @Test func aHotspotWithoutALabelOrWithoutOneInEveryLanguageIsRefused() {
        let noLabel =
            #"{"kind": "screen", "image": "home@2x.png", "alt": {"en": "H"}, "hotspots": [{"x": 1, "y": 1, "width": 9, "height": 9, "tab": "plans"}]}"#
        #expect(Self.problems(noLabel) == ["hotspots[0].label: missing required key 'label'"])
        let json = """
            {"id": "demo", "name": {"en": "Demo", "zh-Hant": "示範"}, "tint": "#FF9500", "tabs": [
             {"id": "home", "title": {"en": "Home", "zh-Hant": "主頁"}, "icon": "home", "page":
              {"kind": "screen", "image": "home@2x.png", "alt": {"en": "H", "zh-Hant": "主"},
               "hotspots": [{"x": 1, "y": 1, "width": 9, "height": 9, "label": {"en": "Go"}, "tab": "plans"}]}},
             {"id": "plans", "title": {"en": "Plans", "zh-Hant": "計畫"}, "icon": "calendar", "page": {"kind": "text"}}]}
            """
        guard
            case .failure(let report) = AppDescription.load(jsonText: json, screenFile: Self.reader(Self.standardFiles))
        else {
            Issue.record("loaded")
            return
        }
        #expect(report.problems.map(\.path) == ["tabs[0].page.hotspots[0].label"])
        #expect(report.problems.first?.message.contains("zh-Hant") == true)
    }

    @Test func anUnknownTargetIsRefused() {
        let unknownTab =
            #"{"kind": "screen", "image": "home@2x.png", "alt": {"en": "H"}, "hotspots": [\#(Self.spot("\"tab\": \"plan\""))]}"#
        #expect(Self.problems(unknownTab) == ["hotspots[0].tab: no tab 'plan'; the tabs are home, plans"])
        let unknownDetail =
            #"{"kind": "screen", "image": "home@2x.png", "alt": {"en": "H"}, "hotspots": [\#(Self.spot("\"push\": \"mroe\""))], \#(Self.detail)}"#
        #expect(Self.problems(unknownDetail) == ["hotspots[0].push: no detail 'mroe'; its details are more"])
        let unknownAction =
            #"{"kind": "screen", "image": "home@2x.png", "alt": {"en": "H"}, "counter": {}, "hotspots": [\#(Self.spot("\"action\": \"double\""))]}"#
        #expect(
            Self.problems(unknownAction) == [
                "hotspots[0].action: no action 'double'; a screen's are increment, decrement and reset"
            ])
    }

    @Test func aHotspotDoesOneThingAndBackIsForADetail() {
        let two =
            #"{"kind": "screen", "image": "home@2x.png", "alt": {"en": "H"}, "hotspots": [\#(Self.spot("\"tab\": \"plans\", \"back\": true"))]}"#
        #expect(Self.problems(two) == ["hotspots[0]: a hotspot does one thing: give one of push, back, tab, action"])
        let back =
            #"{"kind": "screen", "image": "home@2x.png", "alt": {"en": "H"}, "hotspots": [\#(Self.spot("\"back\": true"))]}"#
        #expect(
            Self.problems(back) == [
                "hotspots[0].back: a tab's own screen has nothing to go back to; Back is for a detail's hotspots"
            ])
    }

    @Test func aCountingHotspotNeedsACounterAndVariantsShareTheFirstImagesSize() {
        let noCounter =
            #"{"kind": "screen", "image": "home@2x.png", "alt": {"en": "H"}, "hotspots": [\#(Self.spot("\"action\": \"increment\""))]}"#
        #expect(
            Self.problems(noCounter) == [
                "hotspots: a hotspot changes the count, but the page has no 'counter' (start, maximum)"
            ])
        let mixed =
            #"{"kind": "screen", "image": ["home@2x.png", {"file": "small.png", "device": "tablet"}], "alt": {"en": "H"}}"#
        #expect(
            Self.problems(mixed) == [
                "image[1]: 100×100 points; every image of a screen has the first's size, 390×720 points, so that its hotspots fall in the same places"
            ])
    }

    @Test func theBytesSayTheFormatAndSize() {
        let png = try? ScreenFileInfo.reading(Self.pngHeader(width: 3, height: 4)).get()
        #expect(png?.0 == .png && png?.1 == 3 && png?.2 == 4)
        let jpeg = try? ScreenFileInfo.reading(Self.jpegHeader(width: 640, height: 480)).get()
        #expect(jpeg?.0 == .jpeg && jpeg?.1 == 640 && jpeg?.2 == 480)
        #expect(throws: ScreenFileProblem.notAnImage) { try ScreenFileInfo.reading(Array("GIF89a".utf8)).get() }
        #expect(throws: ScreenFileProblem.unreadable("a PNG without its header chunk")) {
            try ScreenFileInfo.reading(Array(Self.pngHeader(width: 1, height: 1).prefix(10))).get()
        }
    }
}
