import Foundation
import HTTPTesting
import TabModel
import Testing

@testable import TabStageApp

/// Without the script, a browser says how a page was reached (Fetch Metadata): a click on one of
/// this site's pages, or a URL typed, pasted or bookmarked. docs/routes.md, "Entry paths".
@Suite struct NoScriptEntryTests {
    /// What a browser sends for a click on a link of `page`.
    private func click(from page: String, _ visitor: Visitor) -> [(String, String)] {
        [
            ("Sec-Fetch-Site", "same-origin"), ("Sec-Fetch-Mode", "navigate"), ("Sec-Fetch-User", "?1"),
            ("Sec-Fetch-Dest", "document"), ("Referer", "http://127.0.0.1:\(visitor.client.port)\(page)"),
        ]
    }

    /// What a browser sends for a URL typed into its address bar.
    private let typed = [
        ("Sec-Fetch-Site", "none"), ("Sec-Fetch-Mode", "navigate"), ("Sec-Fetch-User", "?1"),
        ("Sec-Fetch-Dest", "document"),
    ]

    private func events(_ visitor: Visitor, _ app: String) throws -> String {
        try visitor.get("/\(app)/events.json").text
    }

    /// The event log of `app` after GETs of each path with its headers.
    private func log(_ visitor: Visitor, _ app: String, after steps: [(String, [(String, String)])]) throws -> String {
        for (path, headers) in steps { _ = try visitor.get(path, headers: headers) }
        return try events(visitor, app)
    }

    @Test func aBarClickIsATapAndATypedURLIsAURLEntry() throws {
        let visitor = try StageServer().visitor()
        let log = try log(
            visitor, "vertical",
            after: [
                ("/vertical/vertical/inbox", typed),
                ("/vertical/vertical/discover", click(from: "/vertical/vertical/inbox", visitor)),
                ("/vertical/vertical/favorites", typed),
            ])
        let expected = [
            "guard inbox (url) → allowed", "shouldSelect discover (tap) → yes", "didSelect discover (tap)",
            "guard favorites (url) → allowed",
        ]
        for line in expected { #expect(log.contains(line)) }
    }

    @Test func aClickThatOpensWhatIsOnScreenIsNoTap() throws {
        let visitor = try StageServer().visitor()
        _ = try visitor.get("/restaurant/bottom/news")
        _ = try visitor.get("/restaurant/bottom/news/spring-menu")
        // Back, a link on the detail to its tab: a pop, not a tap on the bar.
        let back = try visitor.get(
            "/restaurant/bottom/news", headers: click(from: "/restaurant/bottom/news/spring-menu", visitor))
        #expect(back.status == 200)
        // The page a form post redirects to.
        _ = try visitor.post("/restaurant/bottom/news/action", form: [("action", "mark-all-read")])
        _ = try visitor.get("/restaurant/bottom/news", headers: click(from: "/restaurant/bottom/news", visitor))
        let log = try events(visitor, "restaurant")
        #expect(log.contains("pop news/spring-menu"))
        #expect(!log.contains("(tap)"))
    }

    @Test func aClickOnMoreIsATapAndOneOnARowOfItsListIsARow() throws {
        let visitor = try StageServer(application: .deterministic(apps: [sevenTabApp()] + BuiltInApps.all)).visitor()
        let log = try log(
            visitor, "seven",
            after: [
                ("/seven/bottom/t1", typed), ("/seven/bottom/_more", click(from: "/seven/bottom/t1", visitor)),
                ("/seven/bottom/t5", click(from: "/seven/bottom/_more", visitor)),
            ])
        let expected = [
            "shouldSelect moreNavigationController (tap) → yes", "guard t5 (More row) → allowed",
            "moreNavigationController push t5",
        ]
        for line in expected { #expect(log.contains(line)) }
    }

    @Test func aClickFromAnotherSiteOrAnotherLayoutIsAURLEntry() throws {
        let visitor = try StageServer().visitor()
        _ = try visitor.get("/vertical/vertical/inbox")
        _ = try visitor.get("/vertical/vertical/discover", headers: click(from: "/vertical/bottom/inbox", visitor))
        var crossSite = click(from: "/vertical/vertical/discover", visitor)
        crossSite[0] = ("Sec-Fetch-Site", "cross-site")
        _ = try visitor.get("/vertical/vertical/favorites", headers: crossSite)
        #expect(!(try events(visitor, "vertical")).contains("(tap)"))
    }
}
