import Foundation
import HTTPTesting
import TabModel
import Testing

@testable import Snapshots
@testable import TabStageApp
@testable import TabStageCLI

/// The stage over HTTP: its framing rules, the settings a session keeps, the icon colour.
@Suite struct ShowcaseTests {
    @Test func theStageFramesOnlyItsOwnOriginAndIsFramedByNoOne() throws {
        let visitor = try StageServer().visitor()
        let stage = try visitor.get("/restaurant/stage")
        #expect(stage.status == 200)
        #expect(stage.header("Set-Cookie") != nil, "the stage makes the session its two frames share")
        let policy = try #require(stage.header("Content-Security-Policy"))
        #expect(policy.contains("frame-src 'self'; "))
        #expect(policy.hasSuffix("frame-ancestors 'none'"))
        #expect(stage.header("X-Frame-Options") == "DENY")
        #expect(try visitor.get("/nowhere/stage").status == 404)
    }

    @Test func onlyThePagesTheStageFramesMayBeFramedAndOnlyByTheirOwnOrigin() throws {
        let visitor = try StageServer().visitor()
        for path in [
            "/restaurant/bottom/home", "/restaurant/vertical/wallet", "/restaurant/bottom/membership", "/login",
        ] {
            let page = try visitor.get(path)
            let policy = try #require(page.header("Content-Security-Policy"), "\(path)")
            #expect(policy.hasSuffix("frame-ancestors 'self'"), "\(path)")
            #expect(!policy.contains("frame-src"), "\(path)")
            #expect(page.header("X-Frame-Options") == "SAMEORIGIN", "\(path)")
        }
        for path in ["/", "/restaurant/events", "/icons", "/nowhere"] {
            let page = try visitor.get(path)
            let policy = try #require(page.header("Content-Security-Policy"), "\(path)")
            #expect(policy.hasSuffix("frame-ancestors 'none'"), "\(path)")
            #expect(!policy.contains("frame-src"), "\(path)")
            #expect(page.header("X-Frame-Options") == "DENY", "\(path)")
        }
    }

    @Test func aTabPageLoadedIntoAFrameIsDrawnWithoutTheHeader() throws {
        let visitor = try StageServer().visitor()
        let framed = try visitor.get("/restaurant/bottom/home", headers: [("Sec-Fetch-Dest", "iframe")])
        #expect(framed.text.contains("<html lang=\"en\" data-embedded=\"true\">"))
        #expect(!framed.text.contains("<header"))
        let page = try visitor.get("/restaurant/bottom/home", headers: [("Sec-Fetch-Dest", "document")])
        #expect(page.text.contains("<html lang=\"en\">"))
        #expect(page.text.contains("<header class=\"stage-header\">"))
    }

    @Test func theAppearanceAndTheFramesAreKeptInTheSession() throws {
        let visitor = try StageServer().visitor()
        #expect(try visitor.get("/restaurant/bottom/home?appearance=dark").text.contains("data-appearance=\"dark\""))
        #expect(
            try visitor.get("/restaurant/bottom/wallet").text.contains("<html lang=\"en\" data-appearance=\"dark\">"))
        #expect(try visitor.get("/?appearance=LIGHT").text.contains("<html lang=\"en\" data-appearance=\"light\">"))
        #expect(try visitor.get("/restaurant/events?appearance=auto").text.contains("<html lang=\"en\">"))
        #expect(try visitor.get("/restaurant/stage?frame=none").text.contains("<html lang=\"en\" data-frame=\"none\">"))
        #expect(try visitor.get("/restaurant/bottom/wallet").text.contains("<html lang=\"en\" data-frame=\"none\">"))
        #expect(try visitor.get("/restaurant/bottom/wallet?frame=device").text.contains("<html lang=\"en\">"))
        #expect(try visitor.get("/restaurant/bottom/wallet?appearance=purple").text.contains("<html lang=\"en\">"))
    }

    @Test func aSettingAloneMakesASession() throws {
        let visitor = try StageServer().visitor()
        #expect(try visitor.get("/").header("Set-Cookie") == nil)
        #expect(try visitor.get("/?appearance=dark").header("Set-Cookie") != nil)
    }

    @Test func theStagesTimelineFollowsTheSession() throws {
        let visitor = try StageServer().visitor()
        _ = try visitor.get("/restaurant/bottom/home")
        _ = try visitor.get("/restaurant/vertical/wallet", headers: [("X-TabStage-Source", "tap")])
        let stage = try visitor.get("/restaurant/stage")
        #expect(stage.text.contains("<li value=\"1\">guard home (url) → allowed</li>"))
        #expect(stage.text.contains("class=\"step-newest\">guard wallet (tap) → allowed</li>"))
        #expect(stage.text.contains("class=\"step-newest step-containment\">wallet viewDidAppear</li>\n</ol>"))
    }

    @Test func bothIconRoutesTakeTheUnselectedFill() throws {
        let visitor = try StageServer().visitor()
        let grey = try visitor.get("/icons/home/unselected@2x.png")
        let light = try visitor.get("/icons/home/unselected@2x.png?color=C7C7CC")
        #expect(light.status == 200)
        #expect(light.header("Content-Type") == "image/png")
        #expect(light.body != grey.body)
        #expect(try visitor.get("/icons/home/unselected@2x.png?color=white").status == 400)
        let more = try visitor.get("/icons/apps/restaurant/_more/unselected@1x.png?color=C7C7CC")
        #expect(more.status == 200)
        #expect(more.body != (try visitor.get("/icons/apps/restaurant/_more/unselected@1x.png")).body)
    }

    /// Issue 29: a page's built-in icon URLs carry the version of the icon's art beside its tint,
    /// so each names one picture for good and is kept a year; a URL without the current version
    /// (an old page's) is answered but checked again on every use.
    @Test func builtInIconURLsCarryTheirArtsVersionAndAreKeptAYear() throws {
        let visitor = try StageServer().visitor()
        let page = try visitor.get("/restaurant/bottom/home")
        let version = BuiltInIcon.home.artVersion
        #expect(version.count == 8)
        let selected = "/icons/home/selected@2x.png?tint=FF9500&v=\(version)"
        let unselected = "/icons/wallet/unselected@2x.png?v=\(BuiltInIcon.wallet.artVersion)"
        #expect(page.text.contains(selected), "the selected tab's icon names its art's version")
        #expect(page.text.contains(unselected), "an unselected one too")
        let current = try visitor.get(selected)
        #expect(current.status == 200)
        #expect(current.header("Cache-Control") == "public, max-age=31536000, immutable")
        let old = try visitor.get("/icons/home/selected@2x.png?tint=FF9500&v=00000000")
        #expect(old.status == 200)
        #expect(old.header("Cache-Control") == "no-cache")
        #expect(old.body == current.body)
        #expect(try visitor.get("/icons/home/selected@2x.png?tint=FF9500").header("Cache-Control") == "no-cache")
        #expect(Set(BuiltInIcon.allCases.map(\.artVersion)).count == BuiltInIcon.allCases.count, "one art, one version")
        let gallery = try visitor.get("/icons")
        #expect(gallery.text.contains("/icons/home/unselected@1x.png?v=\(version)"))
    }

    /// Issue 36: an English-only app is shown in English to every visitor, without a language
    /// switch; the built-in demos keep both of theirs.
    @Test func anEnglishOnlyAppHasNoLanguageSwitchAndStaysEnglish() throws {
        let json = """
            {"id": "pulse", "name": {"en": "Pulse"}, "tint": "#FF2D55", "languages": ["en"],
             "tabs": [
               {"id": "home", "title": {"en": "Today"}, "icon": "home", "page": {"kind": "text"}},
               {"id": "plan", "title": {"en": "Plan"}, "icon": "calendar", "page": {"kind": "text"}}
             ]}
            """
        let pulse = try AppDescription.load(jsonText: json).get()
        let visitor = try StageServer(application: .deterministic(apps: BuiltInApps.all + [pulse])).visitor()
        for (path, headers) in [
            ("/pulse/bottom/home", [("Accept-Language", "zh-TW,zh;q=0.9")]),
            ("/pulse/vertical/plan?lang=zh-Hant", []),
        ] {
            let page = try visitor.get(path, headers: headers)
            #expect(page.status == 200)
            #expect(page.text.contains("<html lang=\"en\""), "\(path)")
            #expect(!page.text.contains("hreflang="), "\(path): no language switch")
            #expect(page.text.contains(">Today<"), "\(path)")
        }
        let demo = try visitor.get("/restaurant/bottom/home")
        #expect(demo.text.contains("hreflang=\"zh-Hant\""))
    }

    @Test func theStartPageNamesTheFileAnAppCameFrom() throws {
        let application = StageApplication.deterministic(appFiles: ["vertical": "apps/vertical.json"])
        let home = try StageServer(application: application).visitor().get("/")
        #expect(home.text.contains("<p class=\"meta\">Loaded from apps/vertical.json</p>"))
    }
}
