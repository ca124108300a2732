import Foundation
import HTTPTesting
import Testing

@testable import Snapshots
@testable import TabStageApp
@testable import TabStageCLI

@Suite struct ResetDemoTests {
    @Test func resettingTheDemoAsksFirstThenClearsOneAppsContainerAndLog() throws {
        let visitor = try StageServer().visitor()
        _ = try visitor.get("/restaurant/bottom/news")
        let news = try visitor.post("/restaurant/bottom/news/action", form: [("action", "mark-all-read")])
        #expect(news.status == 303)
        _ = try visitor.get("/vertical/vertical/inbox")
        #expect(try visitor.get("/restaurant/events").text.contains("page action news"))
        // The confirmation step: a page that explains, a form that posts, a way back.
        let confirmation = try visitor.get("/restaurant/reset")
        #expect(confirmation.status == 200)
        #expect(confirmation.text.contains("<form method=\"post\" class=\"reset-demo\" action=\"/restaurant/reset\">"))
        #expect(confirmation.text.contains("href=\"/restaurant/events\">Cancel</a>"))
        // Nothing is reset by asking.
        #expect(try visitor.get("/restaurant/events").text.contains("page action news"))
        // Without the session's token, nothing happens.
        #expect(try visitor.post("/restaurant/reset", form: [], withToken: false).status == 403)
        #expect(try visitor.get("/restaurant/events").text.contains("page action news"))
        let reset = try visitor.post("/restaurant/reset", form: [])
        #expect(reset.status == 303)
        #expect(reset.header("Location") == "/restaurant/events")
        #expect(try visitor.get("/restaurant/events").text.contains("Nothing has happened yet in this session."))
        // The news page starts again with its unread badge; the other app keeps its log.
        #expect(try visitor.get("/restaurant/bottom/news").text.contains("<span class=\"badge\">"))
        #expect(try visitor.get("/vertical/events").text.contains("inbox"))
    }

    @Test func theEventLogFilterIsAKnownKind() throws {
        let visitor = try StageServer().visitor()
        _ = try visitor.get("/restaurant/bottom/home")
        #expect(try visitor.get("/restaurant/events?kind=lifecycle").text.contains("home viewDidAppear"))
        #expect(try visitor.get("/restaurant/events?kind=everything").status == 400)
    }
}
