import Foundation
import Sessions
import Synchronization
import Testing

@testable import Snapshots
@testable import TabModel
@testable import TabStageApp
@testable import TabStageCLI

/// The routes of issue 18's navigation (search in the URL, stale windows) and issue 17's first
/// visit to a layout whose first tab needs a login.
@Suite struct NavigationRouteTests {
    @Test func backAndForwardToASearchTabsURLRestoreWhatItSays() throws {
        let visitor = try StageServer().visitor()
        _ = try visitor.get("/restaurant/bottom/finding?q=noodles")
        let back = try visitor.get("/restaurant/bottom/finding", headers: [("X-TabStage-Source", "history")])
        #expect(back.text.contains("value=\"\""))
        #expect(back.text.contains("8 results"))
        let forward = try visitor.get(
            "/restaurant/bottom/finding?q=noodles", headers: [("X-TabStage-Source", "history")])
        #expect(forward.text.contains("value=\"noodles\""))
    }

    @Test func aTapOntoASearchTabLandsOnTheURLOfItsKeptSearch() throws {
        let visitor = try StageServer().visitor()
        _ = try visitor.get("/restaurant/bottom/finding?q=tea%20house")
        _ = try visitor.get("/restaurant/bottom/home", headers: [("X-TabStage-Source", "tap")])
        let tapped = try visitor.get("/restaurant/bottom/finding", headers: [("X-TabStage-Source", "tap")])
        #expect(tapped.status == 303)
        #expect(tapped.header("Location") == "/restaurant/bottom/finding?q=tea%20house")
        let before = try visitor.get("/restaurant/events.json").text
        let landed = try visitor.get(
            "/restaurant/bottom/finding?q=tea%20house", headers: [("X-TabStage-Source", "tap")])
        #expect(landed.text.contains("value=\"tea house\""))
        // Following the redirect is not a second tap: nothing more is logged.
        #expect(try visitor.get("/restaurant/events.json").text == before)
    }

    @Test func anActionFromAStaleWindowSelectsItsTabThenApplies() throws {
        let visitor = try StageServer().visitor()
        _ = try visitor.get("/vertical/vertical/favorites")
        _ = try visitor.get("/vertical/vertical/settings")
        let posted = try visitor.post(
            "/vertical/vertical/favorites/action", form: [("action", "toggle"), ("item", "park")])
        #expect(posted.header("Location") == "/vertical/vertical/favorites")
        let page = try visitor.get("/vertical/vertical/favorites")
        #expect(
            page.text.contains(
                "aria-labelledby=\"toggle-favorites-park\" class=\"toggle toggle-checkbox\" role=\"checkbox\" aria-checked=\"true\""
            ))
        let log = try visitor.get("/vertical/events.json").text
        #expect(log.contains("action from a window of favorites (selected: settings): selecting favorites first"))
    }

    @Test func theResetActionReturnsAListPageToItsInitialState() throws {
        let visitor = try StageServer().visitor()
        _ = try visitor.get("/vertical/vertical/favorites")
        _ = try visitor.post("/vertical/vertical/favorites/action", form: [("action", "toggle"), ("item", "park")])
        let ticked = try visitor.get("/vertical/vertical/favorites")
        #expect(ticked.text.contains("<input type=\"hidden\" name=\"action\" value=\"reset\">"))
        _ = try visitor.post("/vertical/vertical/favorites/action", form: [("action", "reset")])
        let reset = try visitor.get("/vertical/vertical/favorites")
        #expect(
            reset.text.contains(
                "aria-labelledby=\"toggle-favorites-park\" class=\"toggle toggle-checkbox\" role=\"checkbox\" aria-checked=\"false\""
            ))
        #expect(
            reset.text.contains(
                "aria-labelledby=\"toggle-favorites-coffee\" class=\"toggle toggle-checkbox\" role=\"checkbox\" aria-checked=\"true\""
            ))
    }

    @Test func aFirstVisitToALayoutEntersOnTheFirstTabTheGuardAllows() throws {
        var locked = try #require(BuiltInApps.app(id: BuiltInApps.restaurantID))
        locked.tabs[0].requiresLogin = true
        let visitor = try StageServer(application: .deterministic(apps: [locked])).visitor()
        let entry = try visitor.get("/restaurant/bottom")
        #expect(entry.header("Location") == "/restaurant/bottom/finding")
    }

    @Test func anUnknownTabIsLoggedAsARefusal() throws {
        let lines = Mutex<[String]>([])
        let application = StageApplication(
            apps: BuiltInApps.all, store: MemorySessionStore<VisitorSession>(),
            sessionIDs: SeededSessionIDs(seed: 1), clock: { StageApplication.deterministicEpoch },
            log: { line in lines.withLock { $0.append(line) } })
        let visitor = try StageServer(application: application).visitor()
        #expect(try visitor.get("/restaurant/bottom/nothing").status == 404)
        #expect(try visitor.get("/restaurant/vertical/nothing/item").status == 404)
        #expect(
            lines.withLock { $0 } == [
                "tabstage: refused GET /restaurant/bottom/nothing: there is no tab 'nothing'",
                "tabstage: refused GET /restaurant/vertical/nothing/item: there is no tab 'nothing'",
            ])
    }

    @Test func aDetailOfAnUnknownItemIsNotFoundAndAGetOfTheFormEndpointIs405() throws {
        let visitor = try StageServer().visitor()
        #expect(try visitor.get("/restaurant/bottom/news/nothing").status == 404)
        #expect(try visitor.get("/restaurant/bottom/home/anything").status == 404)
        #expect(try visitor.get("/restaurant/bottom/news/action").status == 405)
    }
}
