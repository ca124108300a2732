import Foundation
import TabModel
import Testing
import Views

@testable import Snapshots
@testable import TabStageApp

/// Stage pages kept and sent again (`RenderedPages`): always the bytes drawing the context gives.
@Suite struct RenderedPagesTests {
    private static let tokens: [String?] = [
        "0123456789abcdef0123456789abcdef", "fedcba9876543210fedcba9876543210", nil,
    ]

    private func context(token: String?, name: String? = nil, selecting tabID: String? = nil) throws
        -> StageContext
    {
        let app = try #require(BuiltInApps.app(id: BuiltInApps.restaurantID))
        var container = TabContainer(app: app)
        let tab = tabID ?? app.tabs[0].id
        _ = container.select(.tab(tab), source: .url, isLoggedIn: false, at: Date(timeIntervalSince1970: 0))
        let chrome = ChromeContext(
            language: .english, app: app, layout: .bottom, visitorName: name, currentPath: "/restaurant/bottom/\(tab)",
            csrfToken: token)
        return StageContext(
            chrome: chrome, app: app, layout: .bottom, container: container, content: .tab(id: tab),
            markup: AppMarkup(app: app))
    }

    /// One slot: every page replaces or matches the one before, whoever it was drawn for.
    @Test(arguments: [1, 32])
    func aPageIsTheOneItsContextDraws(slots: Int) throws {
        let pages = RenderedPages(slots: slots)
        let app = try #require(BuiltInApps.app(id: BuiltInApps.restaurantID))
        for _ in 0..<2 {
            for token in Self.tokens {
                for name in [nil, "Ada"] {
                    for tab in app.tabs.prefix(2).map(\.id) {
                        let context = try context(token: token, name: name, selecting: tab)
                        #expect(pages.page(.document, of: context) == StagePage.document(context))
                        #expect(pages.page(.fragment, of: context) == StagePage.fragment(context))
                    }
                }
            }
        }
    }

    @Test func aKeptPageCarriesOnlyItsOwnVisitorsToken() throws {
        let pages = RenderedPages(slots: 1)
        for token in Self.tokens.compactMap({ $0 }) + Self.tokens.compactMap({ $0 }) {
            let page = pages.page(.document, of: try context(token: token))
            #expect(FormToken.csrfToken(in: page) == token)
        }
    }

    /// Through the server: reloads of one page by two visitors, and a change in between.
    @Test func reloadsShowEachVisitorTheirOwnPageAsItIsNow() throws {
        let stage = try StageServer()
        let (ada, bob) = (stage.visitor(), stage.visitor())
        var pages: [String: [UInt8]] = [:]
        for visitor in [ada, bob, ada, bob] {
            let page = try visitor.get("/restaurant/bottom/home").body
            let token = try #require(visitor.csrfToken)
            #expect(FormToken.csrfToken(in: page) == token)
            if let before = pages[token] { #expect(page == before) }
            pages[token] = page
        }
        _ = try ada.get("/restaurant/bottom/wallet")
        let after = try ada.get("/restaurant/bottom/home").body
        #expect(after != pages[try #require(ada.csrfToken)], "the session changed: the page is drawn again")
        #expect(try bob.get("/restaurant/bottom/home").body == pages[try #require(bob.csrfToken)])
    }
}
