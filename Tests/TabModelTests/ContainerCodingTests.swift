import Foundation
import Testing

@testable import TabModel

private func decoder(_ apps: [AppDescription]) -> JSONDecoder {
    let decoder = JSONDecoder()
    decoder.userInfo[.appCatalog] = AppCatalog(apps)
    return decoder
}

/// A container that has met every kind of event: refusals, page actions, badges, detach, drops.
private func busyContainer(_ app: AppDescription, capacity: Int = 40) -> TabContainer {
    var container = TabContainer(app: app, logCapacity: capacity)
    container.tap("member")
    container.tap("wallet")
    container.act(.increment, on: "wallet")
    container.act(.setQuery("x"), on: "wallet")
    container.setBadge(.text(LocalizedText(["en": "new"])), onTab: "home", at: startTime.addingTimeInterval(1.5))
    container.setBadge(.count(7), onTab: "member", at: startTime.addingTimeInterval(2))
    _ = container.select(.index(9), source: .history, isLoggedIn: false, at: startTime.addingTimeInterval(3))
    _ = container.select(.tab("member"), source: .url, isLoggedIn: true, at: startTime.addingTimeInterval(4))
    for round in 0..<6 {
        _ = container.select(
            .index(round % 2), source: .code, isLoggedIn: true, at: startTime.addingTimeInterval(Double(5 + round)))
    }
    return container
}

@Suite struct ContainerCodingTests {
    @Test func theEncodedFormNamesTheAppAndRoundTrips() throws {
        let app = threeTabApp(.fsVertical)
        let container = busyContainer(app)
        #expect(container.log.droppedCount > 0)
        let json = try JSONEncoder().encode(container)
        let text = String(decoding: json, as: UTF8.self)
        #expect(text.contains("\"app\":\"test\""))
        #expect(!text.contains("#112233") && !text.contains("Count"))  // no tint, no labels

        let decoded = try decoder([app]).decode(TabContainer.self, from: json)
        #expect(decoded == container)
        #expect(decoded.log.events == container.log.events)
        #expect(decoded.log.droppedCount == container.log.droppedCount)
        #expect(decoded.pageStates == container.pageStates)
        #expect(decoded.badges == container.badges)
        #expect(decoded.selectedTabID == container.selectedTabID)
    }

    @Test func aStoredContainerRemembersWhichViewsLoadedSoNoneLoadsTwice() throws {
        let app = threeTabApp(.uiKit)
        var container = TabContainer(app: app)
        container.tap("home")
        let json = try JSONEncoder().encode(container)
        var decoded = try decoder([app]).decode(TabContainer.self, from: json)
        let before = decoded.lastSequence
        decoded.tap("wallet")
        decoded.tap("home")
        let loads = decoded.kinds(after: before).filter { if case .viewDidLoad = $0 { true } else { false } }
        #expect(loads == [.viewDidLoad(tabID: "wallet")])
    }

    @Test func aContainerStoredBeforeLoadedViewsWereKeptCountsEveryChildLoaded() throws {
        let app = threeTabApp(.uiKit)
        var container = TabContainer(app: app)
        container.tap("home")
        var object = try #require(
            try JSONSerialization.jsonObject(with: JSONEncoder().encode(container)) as? [String: Any])
        object["loaded"] = nil
        var decoded = try decoder([app]).decode(
            TabContainer.self, from: JSONSerialization.data(withJSONObject: object))
        let before = decoded.lastSequence
        decoded.tap("wallet")
        #expect(!decoded.kinds(after: before).contains(.viewDidLoad(tabID: "wallet")))
    }

    @Test func aStoredContainerKeepsTheMoreNavigationControllersStack() throws {
        let app = makeApp((1...7).map { counterTab("t\($0)") }, policies: .uiKit)
        var container = TabContainer(app: app)
        _ = container.select(.tab("t1"), source: .url, isLoggedIn: false, at: startTime, in: .bottom)
        container.tapMore()
        container.chooseRow("t6")
        container.tap("t2", in: .bottom)
        var decoded = try decoder([app]).decode(TabContainer.self, from: JSONEncoder().encode(container))
        #expect(decoded == container)
        #expect(decoded.tapMore() == .tab(id: "t6"))
    }

    @Test func iOS18sDelegateCallsReadBackFromTheStoredForm() throws {
        let app = threeTabApp(.uiKit18)
        var container = TabContainer(app: app)
        container.tap("wallet")
        container.tap("home")
        container.tap("member")
        let decoded = try decoder([app]).decode(TabContainer.self, from: JSONEncoder().encode(container))
        #expect(decoded.log.events == container.log.events)
        #expect(
            decoded.kinds().suffix(2) == [
                .didSelectTab(tabID: "home", previousTabID: "wallet", source: .tap),
                .shouldSelectTab(tabID: "member", source: .tap, allowed: false),
            ])
    }

    @Test func packedEventsReadBackAsTheyWereRecorded() {
        var container = TabContainer(app: threeTabApp(), logCapacity: 5)
        container.tap("home")
        #expect(container.kinds().last == .viewDidAppear(tabID: "home"))
        container.tap("home")
        #expect(container.kinds().last == .selectionUnchanged(source: .tap, reason: .alreadySelected(tabID: "home")))
        container.setBadge(.count(Int(Int32.max) + 1), onTab: "wallet", at: startTime)
        container.setBadge(nil, onTab: "wallet", at: startTime)
        #expect(
            container.kinds().suffix(2) == [
                .badgeChanged(tabID: "wallet", badge: .count(Int(Int32.max) + 1)),
                .badgeChanged(tabID: "wallet", badge: nil),
            ])
        #expect(container.log.events.map(\.sequence) == Array(container.lastSequence - 4...container.lastSequence))
    }

    @Test func decodingNeedsACatalogThatKnowsTheApp() throws {
        let json = try JSONEncoder().encode(busyContainer(threeTabApp()))
        #expect(throws: AppCatalogError.noCatalog) { try JSONDecoder().decode(TabContainer.self, from: json) }
        #expect(throws: AppCatalogError.unknownApp(id: "test")) {
            try decoder([makeApp([counterTab("a"), counterTab("b")], id: "other")]).decode(
                TabContainer.self, from: json)
        }
    }

    @Test func aChangedDescriptionIsAppliedWithTheReplaceTabsRules() throws {
        let old = threeTabApp()
        var container = TabContainer(app: old)
        container.tap("wallet")
        container.act(.increment, on: "wallet")
        container.tap("home")
        container.act(.increment, on: "home")
        let json = try JSONEncoder().encode(container)

        // home is gone, wallet kept its kind, a news tab was added first.
        let new = makeApp([newsTab("inbox", itemIDs: ["a", "b"]), counterTab("wallet"), counterTab("member")])
        var expected = container
        expected.replaceTabs(with: new, isLoggedIn: false, at: startTime)
        let decoded = try decoder([new]).decode(TabContainer.self, from: json)
        #expect(decoded == expected)
        #expect(decoded.app == new)
        #expect(decoded.selectedTabID == "inbox")
        #expect(decoded.pageState(ofTab: "wallet") == .counter(count: 1))
        #expect(decoded.kinds().contains(.tabsReplaced(tabCount: 3, selectedTabID: "inbox")))
        // Events from before keep naming the tabs they were about.
        #expect(decoded.kinds().contains(.viewDidAppear(tabID: "home")))
        #expect(decoded.kinds().suffix(2) == [.viewAdded(tabID: "inbox"), .viewDidAppear(tabID: "inbox")])
        #expect(decoded.kinds().contains(.removeFromParent(tabID: "home")))
    }

    @Test func eachEventKeepsTheLayoutOfItsRequestThroughStorage() throws {
        var container = TabContainer(app: threeTabApp())
        _ = container.select(.tab("home"), source: .url, isLoggedIn: false, at: startTime, in: .vertical)
        container.act(.increment, on: "home", loggedIn: false)
        _ = container.select(.tab("wallet"), source: .tap, isLoggedIn: false, at: startTime, in: .bottom)
        let layouts = container.log.events.map(\.layout)
        #expect(layouts.first == .vertical)
        #expect(layouts.contains(nil))
        #expect(layouts.last == .bottom)
        let decoded = try decoder([container.app]).decode(TabContainer.self, from: try JSONEncoder().encode(container))
        #expect(decoded.log.events.map(\.layout) == layouts)
    }

    @Test func aStoredContainerIsMovedAsItsVisitorNeverOntoALoginOnlyTabWhenLoggedOut() throws {
        var container = TabContainer(app: threeTabApp())
        container.tap("wallet")
        let json = try JSONEncoder().encode(container)
        // wallet is gone; the tab now at its index needs a login.
        let new = makeApp([counterTab("home"), counterTab("member", requiresLogin: true)])
        let saved = try decoder([new]).decode(TabContainer.Saved.self, from: json)
        #expect(saved.current(isLoggedIn: false).selectedTabID == "home")
        #expect(saved.current(isLoggedIn: true).selectedTabID == "member")
        #expect(try decoder([new]).decode(TabContainer.self, from: json).selectedTabID == "home")
    }

    @Test func aTabWhosePageKindChangedLosesItsState() throws {
        var container = TabContainer(app: threeTabApp())
        container.tap("wallet")
        container.act(.increment, on: "wallet")
        let json = try JSONEncoder().encode(container)
        let new = makeApp([counterTab("home"), newsTab("wallet", itemIDs: ["a"]), counterTab("member")])
        let decoded = try decoder([new]).decode(TabContainer.self, from: json)
        #expect(decoded.selectedTabID == "wallet")
        #expect(decoded.pageState(ofTab: "wallet") == .news(readItemIDs: []))
        #expect(decoded.badge(ofTab: "wallet") == .count(1))
    }

    @Test func damagedRecordsAreADecodingError() throws {
        let app = threeTabApp()
        let json = try JSONEncoder().encode(busyContainer(app))
        var object = try #require(try JSONSerialization.jsonObject(with: json) as? [String: Any])
        var log = try #require(object["log"] as? [String: Any])
        for damaged in ["AAAA", "////", "not base64"] {
            log["records"] = damaged
            object["log"] = log
            let data = try JSONSerialization.data(withJSONObject: object)
            #expect(throws: DecodingError.self) { try decoder([app]).decode(TabContainer.self, from: data) }
        }
    }

    @Test func theLogsOwnCodableFormIsTheReadableOne() throws {
        let log = busyContainer(threeTabApp()).log
        let json = try JSONEncoder().encode(log)
        let text = String(decoding: json, as: UTF8.self)
        #expect(text.contains("\"droppedCount\"") && text.contains("\"tabID\":\"wallet\""))
        let decoded = try JSONDecoder().decode(EventLog.self, from: json)
        #expect(decoded == log)
        #expect(decoded.events == log.events)
    }
}
