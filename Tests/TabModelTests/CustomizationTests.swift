import Foundation
import Testing

@testable import TabModel

/// Seven counters t1…t7 under UIKit's rules; t2, t5, t6 and t7 may move, every tab but t1 may
/// be hidden; `loginOnly` tabs need a login.
private func customizableApp(loginOnly: Set<String> = []) -> AppDescription {
    var tabs = (1...7).map { counterTab("t\($0)", requiresLogin: loginOnly.contains("t\($0)")) }
    for index in tabs.indices.dropFirst() { tabs[index].allowsHiding = true }
    var app = makeApp(tabs, policies: .uiKit)
    app.customizableTabIDs = ["t2", "t5", "t6", "t7"]
    return app
}

private func moreList(_ container: TabContainer) -> [String] {
    container.bottomBarItems().flatMap { item -> [String] in
        if case .more(let ids, _) = item { return ids }
        return []
    }
}

private func barIDs(_ container: TabContainer) -> [String] {
    container.bottomBarItems().compactMap { item in
        if case .tab(_, let id, _) = item { return id }
        return nil
    }
}

@Suite struct CustomizationTests {
    @Test func movingATabIntoTheBarKeepsTheSelectionAndChangesTheMoreList() {
        var container = TabContainer(app: customizableApp())
        container.tap("t6")
        container.beginCustomizing(at: startTime)
        // t5 is the nearest movable tab before t6; t2 before t5 (t3 and t4 keep their places).
        #expect(container.moveTab("t6", by: -1, at: startTime) == nil)
        #expect(container.moveTab("t6", by: -1, at: startTime) == nil)
        #expect(barIDs(container) == ["t1", "t6", "t3", "t4"])
        #expect(moreList(container) == ["t2", "t5", "t7"])
        #expect(container.selectedTabID == "t6")
        #expect(container.bottomBarItems()[1] == .tab(index: 5, tabID: "t6", isSelected: true))
        #expect(container.bottomBarItems().last == .more(tabIDs: ["t2", "t5", "t7"], isSelected: false))
        #expect(container.endCustomizing(at: startTime) == true)
        let kinds = container.kinds(after: 0).suffix(5)
        #expect(
            Array(kinds) == [
                .willBeginCustomizing(tabIDs: ["t2", "t5", "t6", "t7"]), .tabMoved(tabID: "t6", slot: 4),
                .tabMoved(tabID: "t6", slot: 1), .willEndCustomizing(changed: true), .didEndCustomizing(changed: true),
            ])
    }

    @Test func aTabNotCustomizableDoesNotMoveAndAnEditThatUndoesItselfEndsUnchanged() {
        var container = TabContainer(app: customizableApp())
        #expect(container.moveTab("t3", by: 1, at: startTime) == .notMovable(tabID: "t3"))
        #expect(container.moveTab("t2", by: -1, at: startTime) == .noPlaceToMove(tabID: "t2"))
        #expect(!container.isCustomizing)
        container.beginCustomizing(at: startTime)
        container.moveTab("t7", by: -1, at: startTime)
        container.moveTab("t7", by: 1, at: startTime)
        #expect(container.endCustomizing(at: startTime) == false)
        #expect(container.kinds().last == .didEndCustomizing(changed: false))
        #expect(container.endCustomizing(at: startTime) == nil)
    }

    @Test func hidingTheSelectedTabSelectsTheTabNowInItsPlace() {
        var container = TabContainer(app: customizableApp())
        container.tap("t3")
        let before = container.lastSequence
        #expect(container.setTabHidden("t3", true, isLoggedIn: false, at: startTime) == nil)
        #expect(container.selectedTabID == "t4")
        #expect(barIDs(container) == ["t1", "t2", "t4", "t5"])
        #expect(moreList(container) == ["t6", "t7"])
        let kinds = container.kinds(after: before)
        #expect(kinds.first == .willBeginCustomizing(tabIDs: ["t2", "t5", "t6", "t7"]))
        #expect(kinds.dropFirst().first == .tabHiddenChanged(tabID: "t3", isHidden: true))
        #expect(kinds.contains(.guardChecked(tabID: "t4", source: .code, allowed: true)))
        #expect(!kinds.contains { if case .didSelect = $0 { true } else { false } })
    }

    @Test func hidingTheSelectedTabSkipsLoginOnlyTabsForALoggedOutVisitor() {
        var container = TabContainer(app: customizableApp(loginOnly: ["t4", "t5"]))
        container.tap("t3")
        container.setTabHidden("t3", true, isLoggedIn: false, at: startTime)
        #expect(container.selectedTabID == "t1")
        var loggedIn = TabContainer(app: customizableApp(loginOnly: ["t4", "t5"]))
        loggedIn.tap("t3")
        loggedIn.setTabHidden("t3", true, isLoggedIn: true, at: startTime)
        #expect(loggedIn.selectedTabID == "t4")
    }

    @Test func aVisitorEntersOnAndLogsOutToATabTheyDidNotHide() {
        var container = TabContainer(app: customizableApp(loginOnly: ["t1"]))
        container.setTabHidden("t2", true, isLoggedIn: false, at: startTime)
        #expect(container.entryTabID(isLoggedIn: false) == "t3")
        container.tap("t1", loggedIn: true)
        _ = container.visitorLoggedOut(at: startTime)
        #expect(container.selectedTabID == "t3")
    }

    @Test func aHiddenTabIsSelectedByCodeAloneNeverByAPersonsEntryPath() {
        var container = TabContainer(app: customizableApp())
        container.tap("t1")
        container.setTabHidden("t3", true, isLoggedIn: false, at: startTime)
        for source in [SelectionSource.tap, .url, .history, .moreRow] {
            let outcome = container.select(.tab("t3"), source: source, isLoggedIn: false, at: startTime, in: .bottom)
            #expect(outcome == .unchanged(.hiddenTab(tabID: "t3")), "\(source)")
        }
        #expect(container.selectedTabID == "t1")
        #expect(container.select(.tab("t3"), source: .code, isLoggedIn: false, at: startTime) == .selected(tabID: "t3"))
    }

    @Test func theLastTabAVisitorMaySelectStaysShown() {
        var tabs = [counterTab("open"), counterTab("member", requiresLogin: true)]
        tabs[0].allowsHiding = true
        var container = TabContainer(app: makeApp(tabs, policies: .uiKit))
        container.tap("open")
        #expect(
            container.setTabHidden("open", true, isLoggedIn: false, at: startTime) == .lastSelectableTab(tabID: "open"))
        #expect(
            container.setTabHidden("member", true, isLoggedIn: false, at: startTime) == .notHideable(tabID: "member"))
        #expect(container.shownPositions == [0, 1])
    }

    @Test func hiddenLoginOnlyTabsLeaveTheMoreListAndResetBringsThemBack() {
        var container = TabContainer(app: customizableApp(loginOnly: ["t6"]))
        container.tap("t1")
        container.setTabHidden("t6", true, isLoggedIn: false, at: startTime)
        container.setTabHidden("t2", true, isLoggedIn: false, at: startTime)
        #expect(container.bottomBar().more == nil)
        #expect(barIDs(container) == ["t1", "t3", "t4", "t5", "t7"])
        container.moveTab("t7", by: -1, at: startTime)
        #expect(barIDs(container) == ["t1", "t3", "t4", "t7", "t5"])
        container.resetArrangement(at: startTime)
        #expect(barIDs(container) == ["t1", "t2", "t3", "t4"])
        #expect(moreList(container) == ["t5", "t6", "t7"])
        #expect(container.selectedTabID == "t1")
        #expect(container.endCustomizing(at: startTime) == false)
    }

    @Test func movesStayInsideTheirSection() throws {
        var app = customizableApp()
        app.sections = [TabSectionDescription(id: "s", title: text("S"), tabIDs: ["t6", "t7", "t5"])]
        #expect(app.defaultOrder == [0, 1, 2, 3, 5, 6, 4])
        var container = TabContainer(app: app)
        // t2 is among the tabs in no section: t6 (first in its section) cannot pass it.
        #expect(container.moveTab("t6", by: -1, at: startTime) == .noPlaceToMove(tabID: "t6"))
        #expect(container.moveTab("t5", by: -1, at: startTime) == nil)
        #expect(container.shownPositions == [0, 1, 2, 3, 5, 4, 6])
    }

    @Test func anArrangementIsStoredAndAnOlderStoredStateDecodesWithout() throws {
        let app = customizableApp()
        var container = TabContainer(app: app)
        container.tap("t2")
        container.moveTab("t7", by: -1, at: startTime)
        container.setTabHidden("t3", true, isLoggedIn: false, at: startTime)
        let data = try JSONEncoder().encode(container)
        let decoder = JSONDecoder()
        decoder.userInfo[.appCatalog] = AppCatalog([app])
        let decoded = try decoder.decode(TabContainer.self, from: data)
        #expect(decoded == container)
        #expect(decoded.isCustomizing)
        #expect(decoded.shownPositions == [0, 1, 3, 4, 6, 5])
        // Stored before arrangements existed: no `arrangement` key.
        var older = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        older["arrangement"] = nil
        older["customizingFrom"] = nil
        let olderData = try JSONSerialization.data(withJSONObject: older)
        let plain = try decoder.decode(TabContainer.self, from: olderData)
        #expect(plain.shownPositions == Array(0..<7))
        #expect(!plain.isCustomizing)
        #expect(plain.selectedTabID == "t2")
    }

    @Test func aStoredArrangementThatDoesNotFitTheTabsIsRefused() throws {
        let app = customizableApp()
        var container = TabContainer(app: app)
        container.moveTab("t7", by: -1, at: startTime)
        let data = try JSONEncoder().encode(container)
        var object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        object["arrangement"] = ["order": ["t1", "t2"], "hidden": [String]()]
        let decoder = JSONDecoder()
        decoder.userInfo[.appCatalog] = AppCatalog([app])
        #expect(throws: DecodingError.self) {
            try decoder.decode(TabContainer.self, from: JSONSerialization.data(withJSONObject: object))
        }
    }
}
