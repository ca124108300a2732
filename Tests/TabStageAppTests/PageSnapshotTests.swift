import Foundation
import HTTPTesting
import TabModel
import Testing

@testable import Snapshots
@testable import TabStageApp
@testable import TabStageCLI

/// The pages as a browser receives them, over real sockets from a deterministic server.
@Suite struct PageSnapshotTests {
    @Test func appList() throws {
        let stage = try StageServer()
        assertSnapshot(of: try stage.visitor().get("/"))
    }

    /// UIKit's rule over HTTP: past five tabs the bottom bar shows four and More, whose page
    /// lists the rest; a tab chosen from there marks More in the bar.
    @Test func moreThanFiveTabsGoUnderMore() throws {
        let tabs = (1...7).map { index in
            TabDescription(
                id: "t\(index)", title: LocalizedText(en: "Tab \(index)", zhHant: "分頁 \(index)"), icon: .builtIn(.star),
                page: PageDescription(content: .counter(CounterPage(label: LocalizedText(en: "Count", zhHant: "計數")))))
        }
        let many = AppDescription(
            id: "many", name: LocalizedText(en: "Many", zhHant: "多"), tint: "#00AA11", defaultLayout: .bottom,
            policies: .seed004, tabs: tabs)
        let visitor = try StageServer(application: .deterministic(apps: [many] + BuiltInApps.all)).visitor()
        let page = try visitor.get("/many/bottom/t6")
        #expect(page.status == 200)
        #expect(page.text.components(separatedBy: "<li><a class=\"tab\"").count == 6)
        #expect(page.text.contains("data-tab=\"_more\" href=\"/many/bottom/_more\" aria-current=\"page\""))
        let more = try visitor.get("/many/bottom/_more")
        #expect(more.status == 200)
        for hidden in 5...7 {
            #expect(more.text.contains("data-tab=\"t\(hidden)\" href=\"/many/bottom/t\(hidden)\""))
            #expect(more.text.contains("<span class=\"more-title\">Tab \(hidden)</span>"))
        }
        let icon = try visitor.get("/icons/apps/many/_more/selected@2x.png")
        #expect(icon.status == 200)
        #expect(icon.header("Content-Type") == "image/png")
        #expect(try visitor.get("/many/vertical/t6").text.components(separatedBy: "<li><a class=\"tab\"").count == 8)
    }

    @Test func iconGallery() throws {
        let visitor = try StageServer().visitor()
        let gallery = try visitor.get("/icons")
        #expect(gallery.status == 200)
        assertSnapshot(of: gallery)
        // Every image the gallery shows is served.
        let sources = gallery.text.split(separator: "<img ").dropFirst().compactMap { image in
            image.split(separator: "src=\"").dropFirst().first?.prefix { $0 != "\"" }
        }
        // Built-in icons unselected, glowing and tinted; then each demo's tabs unselected and selected.
        let demoTabs = BuiltInApps.all.map(\.tabs.count).reduce(0, +)
        #expect(sources.count == BuiltInIcon.allCases.count * 3 * 3 + demoTabs * 2 * 3)
        for app in BuiltInApps.all { #expect(gallery.text.contains("<h2>\(app.name.english)</h2>")) }
        for source in sources {
            let icon = try visitor.get(String(source).replacingOccurrences(of: "&amp;", with: "&"))
            #expect(icon.status == 200, "\(source)")
            #expect(icon.header("Content-Type") == "image/png")
        }
        #expect(try visitor.get("/icons?tint=2993EF").text.contains("selected@3x.png?tint=2993EF"))
        #expect(try visitor.get("/icons?tint=blue").status == 400)
    }

    @Test(arguments: ["en", "zh-TW"])
    func everyTabOfBothDemosInBothLayouts(language: String) throws {
        let stage = try StageServer()
        for app in BuiltInApps.all {
            for layout in Layout.allCases {
                // A fresh visitor per layout: each page shows the first visit to that tab.
                let visitor = stage.visitor(language: language)
                for tab in app.tabs {
                    let response = try visitor.get("/\(app.id)/\(layout.rawValue)/\(tab.id)")
                    assertSnapshot(of: response, named: "\(language).\(app.id).\(layout.rawValue).\(tab.id)")
                }
            }
        }
    }

    @Test func aRefusedTabKeepsThePreviousSelection() throws {
        let visitor = try StageServer().visitor()
        _ = try visitor.get("/vertical/vertical/discover")
        let refused = try visitor.get("/vertical/vertical/personal-center")
        #expect(refused.status == 403)
        assertSnapshot(of: refused)
    }

    @Test func loggingInContinuesToTheRefusedTab() throws {
        let visitor = try StageServer().visitor()
        _ = try visitor.get("/restaurant/bottom/membership")
        let login = try visitor.post("/login", form: [("name", "Ada"), ("next", "/restaurant/bottom/membership")])
        assertSnapshot(of: login, named: "post")
        let location = try #require(login.header("Location"))
        assertSnapshot(of: try visitor.get(location), named: "continued")
        let logout = try visitor.post("/logout", form: [("next", "/restaurant/bottom/membership")])
        assertSnapshot(of: logout, named: "logout")
        assertSnapshot(of: try visitor.get(try #require(logout.header("Location"))), named: "after-logout")
    }

    @Test func reselectingTheCurrentTab() throws {
        let visitor = try StageServer().visitor()
        _ = try visitor.get("/restaurant/bottom/home")
        let tapped = try visitor.get(
            "/restaurant/bottom/home", headers: [("X-TabStage-Fragment", "1"), ("X-TabStage-Source", "tap")])
        assertSnapshot(of: tapped, named: "tap")
        assertSnapshot(of: try visitor.get("/restaurant/events.json"), named: "events")
    }

    @Test func keepAliveKeepsAPageAcrossSwitchesAndLayouts() throws {
        let visitor = try StageServer().visitor()
        _ = try visitor.get("/restaurant/bottom/home")
        _ = try visitor.post("/restaurant/bottom/home/action", form: [("action", "increment")])
        _ = try visitor.post("/restaurant/bottom/home/action", form: [("action", "increment")])
        _ = try visitor.get("/restaurant/bottom/wallet")
        let switched = try visitor.get("/restaurant/vertical")
        #expect(switched.header("Location") == "/restaurant/vertical/wallet")
        let back = try visitor.get("/restaurant/vertical/home")
        #expect(back.text.contains("<p class=\"balance\" data-announce>2</p>"))
        assertSnapshot(of: back)
    }

    @Test func aListItemPushesADetailScreenWithBack() throws {
        let visitor = try StageServer().visitor()
        _ = try visitor.get("/restaurant/bottom/news")
        let detail = try visitor.get("/restaurant/bottom/news/spring-menu")
        #expect(detail.status == 200)
        #expect(detail.text.contains("<a class=\"back\" data-stage-link href=\"/restaurant/bottom/news\">"))
        assertSnapshot(of: detail, named: "detail")
        // A tap on the bar goes back to the top of the tab's stack: the detail.
        let tapped = try visitor.get("/restaurant/bottom/news", headers: [("X-TabStage-Source", "tap")])
        #expect(tapped.status == 200 || tapped.header("Location") == "/restaurant/bottom/news/spring-menu")
        // Back: the tab's own URL pops the detail.
        let back = try visitor.get("/restaurant/bottom/news")
        #expect(!back.text.contains("class=\"back\""))
        assertSnapshot(of: try visitor.get("/restaurant/events.json"), named: "events")
    }

    @Test func theVerticalSeedKeepsAPageWhenLeftAsItsArrayOfChildrenDoes() throws {
        let visitor = try StageServer().visitor()
        _ = try visitor.get("/vertical/vertical/favorites")
        _ = try visitor.post("/vertical/vertical/favorites/action", form: [("action", "toggle"), ("item", "park")])
        _ = try visitor.get("/vertical/vertical/settings")
        let back = try visitor.get("/vertical/vertical/favorites")
        #expect(
            back.text.contains(
                "aria-labelledby=\"toggle-favorites-park\" class=\"toggle toggle-checkbox\" role=\"checkbox\" aria-checked=\"true\">"
            ))
        assertSnapshot(of: back)
        assertSnapshot(of: try visitor.get("/vertical/events"), named: "events")
    }

    @Test func aFormPostRedirectsToItsPage() throws {
        let visitor = try StageServer().visitor()
        _ = try visitor.get("/restaurant/bottom/wallet")
        let posted = try visitor.post(
            "/restaurant/bottom/wallet/action", form: [("action", "top-up"), ("amount", "500")])
        assertSnapshot(of: posted, named: "post")
        assertSnapshot(of: try visitor.get(try #require(posted.header("Location"))), named: "page")
        let refused = try visitor.post(
            "/restaurant/bottom/wallet/action", form: [("action", "top-up"), ("amount", "lots")])
        #expect(refused.status == 303)
        assertSnapshot(of: try visitor.get("/restaurant/bottom/wallet"), named: "refused")
    }

    @Test func markingNewsReadChangesTheBadge() throws {
        let visitor = try StageServer().visitor()
        _ = try visitor.get("/restaurant/bottom/news")
        _ = try visitor.post(
            "/restaurant/bottom/news/action", form: [("action", "mark-read"), ("item", "spring-menu")])
        let page = try visitor.get("/restaurant/bottom/news")
        #expect(page.text.contains("<span class=\"badge\">2<span class=\"badge-words\"> unread</span></span>"))
        assertSnapshot(of: page)
    }

    @Test func aFragmentResponse() throws {
        let visitor = try StageServer().visitor()
        _ = try visitor.get("/restaurant/bottom/home")
        let fragment = try visitor.get(
            "/restaurant/bottom/finding?q=noodle",
            headers: [("X-TabStage-Fragment", "1"), ("X-TabStage-Source", "tap")])
        #expect(fragment.header("X-TabStage-Fragment") == "1")
        assertSnapshot(of: fragment)
    }

    /// The stage after a tap in each layout: both frames, the timeline with the newest steps marked.
    @Test func theStage() throws {
        let visitor = try StageServer().visitor()
        _ = try visitor.get("/restaurant/bottom/home")
        _ = try visitor.get("/restaurant/bottom/news", headers: [("X-TabStage-Source", "tap")])
        _ = try visitor.get("/restaurant/vertical/wallet", headers: [("X-TabStage-Source", "tap")])
        assertSnapshot(of: try visitor.get("/restaurant/stage"))
    }

    @Test func aDarkPage() throws {
        let visitor = try StageServer().visitor()
        _ = try visitor.get("/restaurant/bottom/home")
        assertSnapshot(of: try visitor.get("/restaurant/bottom/news?appearance=dark"))
    }

    @Test func errorPages() throws {
        let visitor = try StageServer().visitor()
        assertSnapshot(of: try visitor.get("/nowhere/bottom/home"), named: "unknown-app")
        assertSnapshot(of: try visitor.get("/restaurant/bottom/nowhere"), named: "unknown-tab")
        assertSnapshot(of: try visitor.get("/restaurant/sideways/home"), named: "bad-layout")
        _ = try visitor.get("/restaurant/bottom/home")  // a session and its form token, as a browser has
        assertSnapshot(
            of: try visitor.post("/restaurant/bottom/home/action", form: [("action", "explode")]), named: "bad-action")
    }
}
