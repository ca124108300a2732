import TabModel
import Testing

@testable import Views

@Test func theStageFramesBothLayoutsOfTheAppAndMarksTheNewestSelectionsSteps() throws {
    let app = try demo("restaurant")
    var container = TabContainer(app: app)
    _ = container.select(.tab("home"), source: .url, isLoggedIn: false, at: testTime)
    _ = container.select(.tab("wallet"), source: .tap, isLoggedIn: false, at: testTime)
    let html = String(
        decoding: ShowcasePage.document(
            app: app, log: container.log, chrome: ChromeContext(language: .english, app: app)),
        as: UTF8.self)
    #expect(
        html.contains(
            "<iframe class=\"showcase-frame\" name=\"stage-phone\" title=\"Phone, bottom tab bar\" "
                + "src=\"/restaurant/bottom\" width=\"390\" height=\"844\"></iframe>"))
    #expect(
        html.contains(
            "<iframe class=\"showcase-frame\" name=\"stage-tablet\" title=\"Tablet, vertical tab bar\" "
                + "src=\"/restaurant/vertical\" width=\"1024\" height=\"768\"></iframe>"))
    let events = container.log.events
    let lastShouldSelect = try #require(events.lastIndex { ShowcasePage.startsSteps($0.kind) })
    #expect(html.components(separatedBy: "class=\"step-newest").count - 1 == events.count - lastShouldSelect)
    let first = try #require(events.first)
    let last = try #require(events.last)
    #expect(events[lastShouldSelect].kind.description.contains("wallet (tap)"))
    #expect(
        html.contains(
            "<li value=\"\(events[lastShouldSelect].sequence)\" class=\"step-newest\">"
                + "\(events[lastShouldSelect].kind.description)</li>"))
    #expect(!ShowcasePage.isContainmentStep(first.kind))
    #expect(html.contains("<li value=\"1\">\(first.kind.description)</li>"))
    #expect(ShowcasePage.isContainmentStep(last.kind))
    #expect(
        html.contains(
            "<li value=\"\(last.sequence)\" class=\"step-newest step-containment\">\(last.kind.description)</li>"))
}

/// Issue 28: the stage's own controls are drawn beside the devices. The timeline's rows of view
/// controller containment are marked to be shown on request; a switch picks the one device a
/// narrow window shows.
@Test func theStageMarksContainmentStepsAndDrawsItsSwitchesOutsideTheDevices() throws {
    let app = try demo("restaurant")
    var container = TabContainer(app: app)
    _ = container.select(.tab("wallet"), source: .tap, isLoggedIn: false, at: testTime)
    let live = LiveStage(
        version: LiveVersion(revision: 3, generation: 0),
        role: .presenting(
            code: "c0de", followers: 1, link: FollowLink(url: "http://stage.test/restaurant/follow/c0de")))
    let html = String(
        decoding: ShowcasePage.document(
            app: app, log: container.log, live: live, chrome: ChromeContext(language: .english, app: app)),
        as: UTF8.self)
    #expect(html.contains("class=\"step-newest step-containment\">addChild wallet</li>"))
    #expect(html.contains("class=\"step-newest\">guard wallet (tap) → allowed</li>"))
    #expect(html.contains("<input type=\"checkbox\" id=\"timeline-containment\">"))
    #expect(html.contains("<input type=\"checkbox\" id=\"timeline-hidden\">"))
    #expect(
        html.contains("<input type=\"radio\" name=\"stage-device\" id=\"stage-show-phone\" value=\"phone\" checked>"))
    let panel = try #require(
        html.range(of: "<aside class=\"presenter-panel\" id=\"presenter\" aria-label=\"Live presentation\">"))
    let devices = try #require(html.range(of: "<div class=\"showcase-devices\">"))
    #expect(panel.upperBound < devices.lowerBound, "the presenter's panel is not inside a device")
    #expect(html.contains("<a class=\"follow-link\" href=\"http://stage.test/restaurant/follow/c0de\">"))
    #expect(html.contains("<input type=\"hidden\" name=\"return\" value=\"stage\">"))
}

@Test func aTabPageDrawsThePresentersPanelAfterTheDeviceAndAFrameDrawsNone() throws {
    let app = try demo("restaurant")
    var container = TabContainer(app: app)
    _ = container.select(.tab("home"), source: .url, isLoggedIn: false, at: testTime)
    let live = LiveStage(
        version: LiveVersion(revision: 3, generation: 0),
        role: .presenting(
            code: "c0de", followers: 2, link: FollowLink(url: "http://stage.test/restaurant/follow/c0de")))
    func page(embedded: Bool) -> String {
        let chrome = ChromeContext(
            language: .english, app: app, layout: .bottom, display: DisplaySettings(isEmbedded: embedded))
        return String(
            decoding: StagePage.document(
                StageContext(
                    chrome: chrome, app: app, layout: .bottom, container: container, content: .tab(id: "home"),
                    live: live)),
            as: UTF8.self)
    }
    let framed = page(embedded: false)
    let deviceEnd = try #require(framed.range(of: "</main>"))
    let panel = try #require(
        framed.range(of: "<aside class=\"presenter-panel\" id=\"presenter\" aria-label=\"Live presentation\">"))
    #expect(deviceEnd.upperBound <= panel.lowerBound, "the panel follows the device, outside it")
    #expect(framed.contains("2 people following"))
    let embedded = page(embedded: true)
    #expect(
        !embedded.contains("follow-link") && !embedded.contains("presenter-panel") && !embedded.contains("/present"))
}

@Test func theTimelineShowsOnlyTheNewestEvents() throws {
    let app = try demo("restaurant")
    var container = TabContainer(app: app)
    for _ in 0..<10 {
        for tab in ["home", "finding", "wallet"] {
            _ = container.select(.tab(tab), source: .tap, isLoggedIn: false, at: testTime)
        }
    }
    var html = HTMLWriter()
    ShowcasePage.timeline(app: app, log: container.log, language: .english, into: &html)
    let text = String(decoding: html.finish(), as: UTF8.self)
    #expect(text.components(separatedBy: "<li value=").count - 1 == ShowcasePage.timelineLength)
    let last = container.log.events.count
    #expect(text.contains("<li value=\"\(last - ShowcasePage.timelineLength + 1)\""))
    #expect(!text.contains("<li value=\"\(last - ShowcasePage.timelineLength)\""))
}

@Test func aStageWithoutEventsSaysToTapATab() throws {
    let app = try demo("vertical")
    var html = HTMLWriter()
    ShowcasePage.timeline(app: app, log: nil, language: .english, into: &html)
    let text = String(decoding: html.finish(), as: UTF8.self)
    #expect(text.contains("<p class=\"meta\">Nothing has happened yet: tap a tab.</p>"))
    #expect(!text.contains("<ol"))
}

@Test func aDarkPageMarksItsRootAndDrawsUnselectedIconsInALightFill() throws {
    let app = try demo("restaurant")
    var container = TabContainer(app: app)
    _ = container.select(.tab("wallet"), source: .url, isLoggedIn: false, at: testTime)
    let context = StageContext(
        chrome: ChromeContext(
            language: .english, app: app, layout: .bottom, display: DisplaySettings(appearance: .dark)),
        app: app, layout: .bottom, container: container, content: .tab(id: "wallet"))
    let html = String(decoding: StagePage.document(context), as: UTF8.self)
    #expect(html.hasPrefix("<!doctype html>\n<html lang=\"en\" data-appearance=\"dark\">\n"))
    #expect(
        html.contains(
            "<img class=\"tab-icon tab-icon-on-dark\" loading=\"lazy\" alt=\"\" width=\"80\" height=\"80\" "
                + "src=\"/icons/home/unselected@1x.png?v=\(BuiltInIcon.home.artVersion)&color=C7C7CC\" "
                + "srcset=\"/icons/home/unselected@1x.png?v=\(BuiltInIcon.home.artVersion)&color=C7C7CC 1x, "
                + "/icons/home/unselected@2x.png?v=\(BuiltInIcon.home.artVersion)&color=C7C7CC 2x, "
                + "/icons/home/unselected@3x.png?v=\(BuiltInIcon.home.artVersion)&color=C7C7CC 3x\">"))
    #expect(
        html.contains(
            "<img class=\"tab-icon tab-icon-on-light\" loading=\"lazy\" alt=\"\" width=\"80\" height=\"80\" "
                + "src=\"/icons/home/unselected@1x.png?v=\(BuiltInIcon.home.artVersion)\""))
    // The selected glow: one picture, in the tint, in either appearance.
    #expect(
        html.contains(
            "aria-current=\"page\"><img class=\"tab-icon\" alt=\"\" width=\"80\" height=\"80\" "
                + "src=\"/icons/wallet/selected@1x.png?tint=FF9500&v=\(BuiltInIcon.wallet.artVersion)\""))
    #expect(!html.contains("selected@1x.png?tint=FF9500&v=\(BuiltInIcon.wallet.artVersion)&color"))
    #expect(html.contains("<a href=\"?appearance=dark\" aria-current=\"true\">Dark</a>"))
}

@Test func theDefaultDisplayAddsNothingToTheRoot() throws {
    let app = try demo("restaurant")
    let html = stageHTML(app, layout: .bottom, container: TabContainer(app: app), content: .tab(id: "home"))
    #expect(html.hasPrefix("<!doctype html>\n<html lang=\"en\">\n"))
    #expect(html.contains("<a href=\"?appearance=auto\" aria-current=\"true\">Auto</a>"))
    #expect(html.contains("<a class=\"stage-link\" href=\"/restaurant/stage\">Stage</a>"))
    #expect(
        html.contains(
            "<div class=\"status-bar\" aria-hidden=\"true\"><span class=\"status-time\">9:41</span>"
                + "<span class=\"status-battery\"></span></div>\n<div class=\"home-indicator\" aria-hidden=\"true\"></div>\n"
                + "<section id=\"page\""))
}

@Test func anEmbeddedPageWithoutFramesHasNoHeaderAndSaysSoAtItsRoot() throws {
    let app = try demo("restaurant")
    let display = DisplaySettings(appearance: .light, showsDeviceFrames: false, isEmbedded: true)
    let context = StageContext(
        chrome: ChromeContext(language: .english, app: app, layout: .vertical, display: display), app: app,
        layout: .vertical, container: TabContainer(app: app), content: .tab(id: "home"), markup: AppMarkup(app: app))
    let html = String(decoding: StagePage.document(context), as: UTF8.self)
    #expect(
        html.hasPrefix(
            "<!doctype html>\n<html lang=\"en\" data-appearance=\"light\" data-frame=\"none\" data-embedded=\"true\">\n"
        ))
    #expect(!html.contains("<header"))
    #expect(html.contains("<link rel=\"stylesheet\" href=\"/theme/restaurant.css?tint=FF9500\">"))
    #expect(html.contains("<body>\n<main id=\"stage\""))
}

@Test func theStartPageShowsEachAppAsACardWithItsIconsAndItsFile() throws {
    let html = String(
        decoding: HomePage.document(
            apps: BuiltInApps.all, files: ["restaurant": "examples/restaurant.json"],
            chrome: ChromeContext(language: .english)),
        as: UTF8.self)
    #expect(html.components(separatedBy: "<li class=\"app-card\">").count - 1 == BuiltInApps.all.count)
    #expect(html.contains("<p class=\"meta\">Loaded from examples/restaurant.json</p>"))
    #expect(html.contains("<p class=\"meta\">Built-in demo</p>"))
    #expect(
        html.contains(
            "<a class=\"button\" href=\"/restaurant/stage\">Open the stage"
                + "<span class=\"visually-hidden\"> – Restaurant</span></a>"))
    #expect(
        html.contains(
            "<img alt=\"\" width=\"48\" height=\"48\" src=\"/icons/home/selected@1x.png?tint=FF9500&v=\(BuiltInIcon.home.artVersion)\" "
                + "srcset=\"/icons/home/selected@1x.png?tint=FF9500&v=\(BuiltInIcon.home.artVersion) 1x, "
                + "/icons/home/selected@2x.png?tint=FF9500&v=\(BuiltInIcon.home.artVersion) 2x, "
                + "/icons/home/selected@3x.png?tint=FF9500&v=\(BuiltInIcon.home.artVersion) 3x\">"))
    let restaurant = try demo("restaurant")
    let icons = html.components(separatedBy: "<img alt=\"\" width=\"48\"").count - 1
    #expect(icons == BuiltInApps.all.reduce(0) { $0 + $1.tabs.count })
    #expect(restaurant.tabs.count == 5)
}

@Test func anEndedPresentationIsHeadedSoNotPageNotFound() {
    let html = String(
        decoding: ErrorPage.document(
            status: 404, message: .presentationEnded, chrome: ChromeContext(language: .english)),
        as: UTF8.self)
    #expect(html.contains("<h1>This presentation has ended</h1>"))
    #expect(!html.contains("Page not found"))
}
