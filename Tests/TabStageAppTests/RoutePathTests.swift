import TabModel
import Testing
import Views

@testable import TabStageApp

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
}
