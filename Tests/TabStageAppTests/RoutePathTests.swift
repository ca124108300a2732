import TabModel
import Testing
import Views

@testable import Snapshots
@testable import TabStageApp
@testable import TabStageCLI

@Suite struct RoutePathTests {
    /// A wrong app or layout is answered by the error page `locate` throws, from every route
    /// that takes one: the layout entry, the tab page and the form action.
    @Test func aWrongAppOrLayoutIsAnsweredFromEveryRoute() throws {
        let visitor = try StageServer().visitor()
        let unknownApp = try visitor.get("/nowhere/bottom/home")
        #expect(unknownApp.status == 404)
        #expect(unknownApp.text.contains("nowhere"))
        let entry = try visitor.get("/nowhere/bottom")
        #expect(entry.status == 404)
        #expect(entry.text == unknownApp.text)
        let badLayout = try visitor.get("/restaurant/sideways/home")
        #expect(badLayout.status == 400)
        #expect(badLayout.text.contains("sideways"))
        let badEntry = try visitor.get("/restaurant/sideways")
        #expect(badEntry.status == 400)
        #expect(badEntry.text == badLayout.text)
        let action = try visitor.post("/nowhere/bottom/home/action", form: [("action", "increment")])
        #expect(action.status == 404)
        #expect(action.text == unknownApp.text)
    }

    /// `/{app}` opens the app in the layout its description names.
    @Test func theAppsOwnPathRedirectsToItsLayout() throws {
        let visitor = try StageServer().visitor()
        let restaurant = try visitor.get("/restaurant")
        #expect(restaurant.status == 303)
        #expect(restaurant.header("Location") == "/restaurant/bottom")
        let vertical = try visitor.get("/vertical?lang=zh-Hant")
        #expect(vertical.status == 303)
        #expect(vertical.header("Location") == "/vertical/vertical?lang=zh-Hant")
        #expect(try visitor.get("/nowhere").status == 404)
    }

    /// A path that exists for one method answers another with 405 and the methods it has; only a
    /// path no route knows is the 404 page.
    @Test func aPathOfAnotherMethodIs405WithAllow() throws {
        let visitor = try StageServer().visitor()
        _ = try visitor.get("/restaurant/bottom/home")
        let postToPage = try visitor.post("/restaurant/bottom/home", form: [("action", "increment")])
        #expect(postToPage.status == 405)
        #expect(postToPage.header("Allow") == "GET, HEAD")
        let getOfAction = try visitor.get("/restaurant/bottom/home/action")
        #expect(getOfAction.status == 405)
        #expect(getOfAction.header("Allow") == "POST")
        let postToStatic = try visitor.post("/static/css/tabstage.css", form: [])
        #expect(postToStatic.status == 405)
        #expect(postToStatic.header("Allow") == "GET, HEAD")
        // Four segments are a detail screen's path for GET: five are nobody's.
        #expect(try visitor.post("/nowhere/at/all/really/deep", form: []).status == 404)
        #expect(try visitor.get("/nowhere/at/all/really/deep").status == 404)
    }
}
