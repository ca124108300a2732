import Foundation
import Testing

@testable import TabModel

@Suite struct SelectionTests {
    @Test func selectionStartsEmpty() {
        let container = TabContainer(app: threeTabApp())
        #expect(container.selectedTabID == nil)
        #expect(container.selectedIndex == nil)
        #expect(container.log.events.isEmpty)
    }

    @Test func firstSelectionRecordsTheNewChildStepsInUIKitOrder() {
        var container = TabContainer(app: threeTabApp())
        let outcome = container.select(.index(0), source: .tap, isLoggedIn: false, at: startTime)
        #expect(outcome == .selected(tabID: "home"))
        #expect(container.selectedIndex == 0)
        #expect(
            container.kinds() == [
                .shouldSelect(tabID: "home", source: .tap, allowed: true, reason: nil),
                .childCreated(tabID: "home"),
                .willMoveToParent(tabID: "home"),
                .addChild(tabID: "home"),
                .viewWillAppear(tabID: "home"),
                .viewAdded(tabID: "home"),
                .viewDidAppear(tabID: "home"),
                .didMoveToParent(tabID: "home"),
                .didSelect(tabID: "home", source: .tap),
            ])
        #expect(container.log.events.map(\.sequence) == Array(1...9))
        #expect(container.log.events.allSatisfy { $0.time == startTime })
    }

    @Test func laterSwitchUnderKeepAliveInterleavesOldAndNew() {
        var container = TabContainer(app: threeTabApp())
        container.tap("home")
        let before = container.lastSequence
        container.tap("wallet")
        #expect(
            container.kinds(after: before) == [
                .shouldSelect(tabID: "wallet", source: .tap, allowed: true, reason: nil),
                .childCreated(tabID: "wallet"),
                .willMoveToNoParent(tabID: "home"),
                .willMoveToParent(tabID: "wallet"),
                .addChild(tabID: "wallet"),
                .viewWillDisappear(tabID: "home"),
                .viewWillAppear(tabID: "wallet"),
                .viewAdded(tabID: "wallet"),
                .viewRemoved(tabID: "home"),
                .viewDidDisappear(tabID: "home"),
                .viewDidAppear(tabID: "wallet"),
                .removeFromParent(tabID: "home"),
                .didMoveToParent(tabID: "wallet"),
                .didSelect(tabID: "wallet", source: .tap),
            ])
        // Back to home: kept alive, so no second childCreated.
        let second = container.lastSequence
        container.tap("home")
        #expect(!container.kinds(after: second).contains(.childCreated(tabID: "home")))
    }

    @Test func switchUnderDetachDiscardsTheOldChildAfterRemovingIt() {
        var container = TabContainer(app: threeTabApp(.detachSeeds))
        container.tap("home")
        container.tap("wallet")
        let before = container.lastSequence
        container.tap("home")
        let kinds = container.kinds(after: before)
        #expect(kinds[1] == .childCreated(tabID: "home"))
        #expect(
            kinds.suffix(4) == [
                .removeFromParent(tabID: "wallet"),
                .didMoveToParent(tabID: "home"),
                .childDiscarded(tabID: "wallet"),
                .didSelect(tabID: "home", source: .tap),
            ])
        #expect(Array(container.pageStates.keys) == ["home"])
    }

    @Test func loginOnlyTabNeedsLoginAndChangesNothingButTheLog() {
        var container = TabContainer(app: threeTabApp())
        container.tap("home")
        container.act(.increment, on: "home")
        let before = container
        let outcome = container.tap("member")
        guard case .needsLogin(let then, let reason) = outcome else {
            Issue.record("expected needsLogin, got \(outcome)")
            return
        }
        #expect(then == "member")
        #expect(reason.english == "Log in to see Member")
        #expect(container.selectedTabID == before.selectedTabID)
        #expect(container.pageStates == before.pageStates)
        #expect(container.badges == before.badges)
        #expect(
            container.kinds(after: before.lastSequence) == [
                .shouldSelect(tabID: "member", source: .tap, allowed: false, reason: "Log in to see Member")
            ])
    }

    @Test func theLoginGuardAppliesToEverySource() {
        for source in SelectionSource.allCases {
            var container = TabContainer(app: threeTabApp())
            let outcome = container.select(.index(2), source: source, isLoggedIn: false, at: startTime)
            let reason = LocalizedText(en: "Log in to see Member", zhHant: "請先登入以查看Member（中）")
            #expect(outcome == .needsLogin(then: "member", reason: reason))
            #expect(
                container.kinds() == [
                    .shouldSelect(tabID: "member", source: source, allowed: false, reason: reason.english)
                ])
            #expect(container.selectedTabID == nil)
        }
    }

    @Test func afterLoginTheSameSelectionSucceeds() {
        var container = TabContainer(app: threeTabApp())
        container.tap("home")
        guard case .needsLogin(let then, _) = container.tap("member") else {
            Issue.record("expected needsLogin")
            return
        }
        #expect(container.tap(then, loggedIn: true) == .selected(tabID: "member"))
        #expect(container.visitorLoggedOut(at: startTime) == .selected(tabID: "home"))
        #expect(container.visitorLoggedOut(at: startTime) == nil)
    }

    @Test func reselectingChangesNothingUnderTheSeedsPolicy() {
        var container = TabContainer(app: threeTabApp())
        container.tap("home")
        container.act(.increment, on: "home")
        let before = container
        #expect(container.tap("home") == .unchanged(.alreadySelected(tabID: "home")))
        #expect(container.pageStates == before.pageStates)
        #expect(
            container.kinds(after: before.lastSequence) == [
                .selectionUnchanged(source: .tap, reason: .alreadySelected(tabID: "home"))
            ])
    }

    @Test func reselectingPopsToRootUnderTheUIKitPolicy() {
        var container = TabContainer(app: threeTabApp(.uiKit))
        container.tap("home")
        container.act(.increment, on: "home")
        #expect(container.pageState(ofTab: "home") == .counter(count: 1))
        let before = container.lastSequence
        #expect(container.tap("home") == .poppedToRoot(tabID: "home"))
        #expect(container.pageState(ofTab: "home") == .counter(count: 0))
        #expect(container.kinds(after: before) == [.poppedToRoot(tabID: "home")])
    }

    @Test(arguments: [-1, 3, Int.max, Int.min])
    func outOfRangeIndicesChangeNothing(index: Int) {
        var container = TabContainer(app: threeTabApp())
        container.tap("wallet")
        let before = container
        let outcome = container.select(.index(index), source: .url, isLoggedIn: true, at: startTime)
        #expect(outcome == .unchanged(.outOfRange(index: index, tabCount: 3)))
        #expect(container.selectedTabID == "wallet")
        #expect(container.pageStates == before.pageStates)
        #expect(container.kinds(after: before.lastSequence).count == 1)
    }

    @Test func unknownTabIDChangesNothing() {
        var container = TabContainer(app: threeTabApp())
        #expect(container.tap("nope") == .unchanged(.unknownTab(id: "nope")))
        #expect(container.selectedTabID == nil)
    }

    @Test func codeSelectionsRecordDidSelectOnlyWhenThePolicySaysSo() {
        var seeds = TabContainer(app: threeTabApp(.seeds))
        _ = seeds.select(.index(1), source: .code, isLoggedIn: false, at: startTime)
        #expect(seeds.kinds().last == .didSelect(tabID: "wallet", source: .code))

        var uiKit = TabContainer(app: threeTabApp(.uiKit))
        _ = uiKit.select(.index(1), source: .code, isLoggedIn: false, at: startTime)
        #expect(uiKit.selectedTabID == "wallet")
        #expect(uiKit.kinds().last == .didMoveToParent(tabID: "wallet"))
        #expect(!uiKit.kinds().contains { if case .didSelect = $0 { true } else { false } })

        // Taps still record it under UIKit.
        uiKit.tap("home")
        #expect(uiKit.kinds().last == .didSelect(tabID: "home", source: .tap))
    }

    @Test func eventsHaveReadableDescriptionsAndEncodeToJSON() throws {
        var container = TabContainer(app: threeTabApp())
        container.tap("member")
        let event = try #require(container.log.events.first)
        #expect(event.description == "#1 shouldSelect member (tap) → no: Log in to see Member")
        let json = String(decoding: try JSONEncoder().encode(event.kind), as: UTF8.self)
        #expect(json.contains("\"shouldSelect\""))
        #expect(json.contains("\"tabID\":\"member\""))
        let decoder = JSONDecoder()
        decoder.userInfo[.appCatalog] = AppCatalog([container.app])
        let decoded = try decoder.decode(TabContainer.self, from: try JSONEncoder().encode(container))
        #expect(decoded == container)
    }
}
