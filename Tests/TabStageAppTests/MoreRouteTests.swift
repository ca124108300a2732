import Foundation
import HTTPTesting
import TabModel
import Testing

@testable import TabStageApp

/// Seven counters t1…t7 under UIKit's preset: t1…t4 in the bottom bar, t5…t7 under More, t7
/// for logged-in visitors only.
func sevenTabApp() -> AppDescription {
    let tabs = (1...7).map { index in
        TabDescription(
            id: "t\(index)", title: LocalizedText(en: "Tab \(index)", zhHant: "分頁 \(index)"), icon: .builtIn(.star),
            requiresLogin: index == 7,
            page: PageDescription(content: .counter(CounterPage(label: LocalizedText(en: "Count", zhHant: "計數")))))
    }
    return AppDescription(
        id: "seven", name: LocalizedText(en: "Seven", zhHant: "七"), tint: "#00AA11", defaultLayout: .bottom,
        policies: .uiKit, tabs: tabs)
}

private let tap = [("X-TabStage-Source", "tap")]
private let row = [("X-TabStage-Source", "more")]

@Suite struct MoreRouteTests {
    private func visitor() throws -> Visitor {
        try StageServer(application: .deterministic(apps: [sevenTabApp()] + BuiltInApps.all)).visitor()
    }

    @Test func tappingMoreSelectsTheMoreNavigationControllerAndARowPushesItsTabUnheardByTheTabBarDelegate() throws {
        let visitor = try visitor()
        _ = try visitor.get("/seven/bottom/t1")
        #expect(try visitor.get("/seven/bottom/_more", headers: tap).status == 200)
        #expect(try visitor.get("/seven/bottom/t5", headers: row).status == 200)
        let log = try visitor.get("/seven/events.json").text
        #expect(log.contains("shouldSelect moreNavigationController (tap) → yes"))
        #expect(log.contains("didSelect moreNavigationController (tap)"))
        #expect(log.contains("moreNavigationController push t5"))
        #expect(log.contains("moreNavigationController didShow t5"))
        #expect(!log.contains("shouldSelect t5") && !log.contains("didSelect t5"))
    }

    @Test func moreKeepsItsStackSoTappingItAgainShowsThePushedTabAndOnceMorePopsToTheList() throws {
        let visitor = try visitor()
        _ = try visitor.get("/seven/bottom/t1")
        _ = try visitor.get("/seven/bottom/_more", headers: tap)
        _ = try visitor.get("/seven/bottom/t6", headers: row)
        _ = try visitor.get("/seven/bottom/t2", headers: tap)
        let again = try visitor.get("/seven/bottom/_more", headers: tap)
        #expect(again.status == 303)
        #expect(again.header("Location") == "/seven/bottom/t6")
        let page = try visitor.get("/seven/bottom/t6")
        #expect(page.text.contains("aria-current=\"page\""))
        let popped = try visitor.get("/seven/bottom/_more", headers: tap)
        #expect(popped.status == 200)
        #expect(try visitor.get("/seven/events.json").text.contains("moreNavigationController popToRoot"))
        #expect(try visitor.get("/seven/bottom").header("Location") == "/seven/bottom/_more")
    }

    @Test func aLoginOnlyRowIsRefusedByTheGuardNotByShouldSelect() throws {
        let visitor = try visitor()
        _ = try visitor.get("/seven/bottom/t1")
        _ = try visitor.get("/seven/bottom/_more", headers: tap)
        #expect(try visitor.get("/seven/bottom/t7", headers: row).status == 403)
        let log = try visitor.get("/seven/events.json").text
        #expect(log.contains("guard t7 (More row) → refused (needs login)"))
        #expect(!log.contains("shouldSelect t7"))
    }
}
