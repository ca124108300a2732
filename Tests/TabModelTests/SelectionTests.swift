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

    @Test func firstSelectionUnderUIKitAddsEveryChildThenShowsTheSelectedOne() {
        var container = TabContainer(app: threeTabApp(.uiKit))
        let outcome = container.select(.index(0), source: .tap, isLoggedIn: false, at: startTime)
        #expect(outcome == .selected(tabID: "home"))
        #expect(container.selectedIndex == 0)
        let adds = ["home", "wallet", "member"].flatMap { id -> [ContainerEventKind] in
            [.childCreated(tabID: id), .willMoveToParent(tabID: id), .addChild(tabID: id), .didMoveToParent(tabID: id)]
        }
        #expect(
            container.kinds()
                == [.shouldSelect(tabID: "home", source: .tap, allowed: true)] + adds + [
                    .viewDidLoad(tabID: "home"),
                    .viewWillAppear(tabID: "home"),
                    .viewAdded(tabID: "home"),
                    .viewDidAppear(tabID: "home"),
                    .didSelect(tabID: "home", source: .tap),
                ])
        #expect(container.log.events.map(\.sequence) == Array(1...18))
        #expect(container.log.events.allSatisfy { $0.time == startTime })
    }

    @Test func aSwitchUnderUIKitIsAViewSwapWithAppearanceCallbacks() {
        var container = TabContainer(app: threeTabApp(.uiKit))
        container.tap("home")
        let before = container.lastSequence
        container.tap("wallet")
        #expect(
            container.kinds(after: before) == [
                .shouldSelect(tabID: "wallet", source: .tap, allowed: true),
                .viewDidLoad(tabID: "wallet"),
                .viewWillAppear(tabID: "wallet"),
                .viewWillDisappear(tabID: "home"),
                .viewAdded(tabID: "wallet"),
                .viewRemoved(tabID: "home"),
                .viewDidDisappear(tabID: "home"),
                .viewDidAppear(tabID: "wallet"),
                .didSelect(tabID: "wallet", source: .tap),
            ])
    }

    @Test func seed004AddsEachChildOnceAndNeverRemovesOne() {
        var container = TabContainer(app: threeTabApp(.seed004))
        container.tap("home")
        container.tap("wallet")
        let before = container.lastSequence
        container.tap("home")
        #expect(
            container.kinds(after: before) == [
                .guardChecked(tabID: "home", source: .tap, allowed: true), .viewAdded(tabID: "home"),
            ])
        let kinds = container.kinds()
        #expect(kinds.filter { $0 == .addChild(tabID: "home") }.count == 1)
        #expect(!kinds.contains { if case .removeFromParent = $0 { true } else { false } })
        #expect(!kinds.contains { if case .didSelect = $0 { true } else { false } })
    }

    @Test func fsVerticalAddsTheNewChildThenRemovesTheOldAsItsSetterDoes() {
        var container = TabContainer(app: threeTabApp(.fsVertical))
        container.tap("home")
        container.tap("wallet")
        let before = container.lastSequence
        container.tap("home")
        #expect(
            container.kinds(after: before) == [
                .shouldSelect(tabID: "home", source: .tap, allowed: true),
                .willMoveToParent(tabID: "home"),
                .addChild(tabID: "home"),
                .viewWillAppear(tabID: "home"),
                .viewAdded(tabID: "home"),
                .viewDidAppear(tabID: "home"),
                .viewWillDisappear(tabID: "wallet"),
                .viewRemoved(tabID: "wallet"),
                .viewDidDisappear(tabID: "wallet"),
                .removeFromParent(tabID: "wallet"),
                .didMoveToNoParent(tabID: "wallet"),
                .didSelect(tabID: "home", source: .tap),
            ])
    }

    @Test func fsVerticalGivesBackTheSameChildWithItsStateAsTheSeedsArrayDoes() {
        var container = TabContainer(app: threeTabApp(.fsVertical))
        container.tap("home")
        container.act(.increment, on: "home")
        container.tap("wallet")
        let before = container.lastSequence
        container.tap("home")
        #expect(container.pageState(ofTab: "home") == .counter(count: 1))
        #expect(container.pageStates.keys.sorted() == ["home", "member", "wallet"])
        let kinds = container.kinds(after: before)
        #expect(!kinds.contains { if case .childCreated = $0 { true } else { false } })
        #expect(!kinds.contains { if case .childDiscarded = $0 { true } else { false } })
        #expect(kinds.contains(.addChild(tabID: "home")) && kinds.contains(.removeFromParent(tabID: "wallet")))
    }

    @Test func detachUnderAnotherPresetKeepsUIKitsCustomContainerOrder() {
        var policies = NavigationPolicies.uiKit
        policies.childRetention = .detach
        var container = TabContainer(app: threeTabApp(policies))
        container.tap("home")
        let before = container.lastSequence
        container.tap("wallet")
        #expect(
            container.kinds(after: before) == [
                .shouldSelect(tabID: "wallet", source: .tap, allowed: true),
                .childCreated(tabID: "wallet"),
                .willMoveToNoParent(tabID: "home"),
                .willMoveToParent(tabID: "wallet"),
                .addChild(tabID: "wallet"),
                .viewDidLoad(tabID: "wallet"),
                .viewWillAppear(tabID: "wallet"),
                .viewWillDisappear(tabID: "home"),
                .viewAdded(tabID: "wallet"),
                .viewRemoved(tabID: "home"),
                .viewDidDisappear(tabID: "home"),
                .viewDidAppear(tabID: "wallet"),
                .removeFromParent(tabID: "home"),
                .didMoveToParent(tabID: "wallet"),
                .childDiscarded(tabID: "home"),
                .didSelect(tabID: "wallet", source: .tap),
            ])
    }

    @Test func loginOnlyTabNeedsLoginAndChangesNothingButTheLog() {
        var container = TabContainer(app: threeTabApp())
        container.tap("home")
        container.act(.increment, on: "home")
        let before = container
        let outcome = container.tap("member")
        #expect(outcome == .refused(tabID: "member", reason: .needsLogin))
        #expect(container.selectedTabID == before.selectedTabID)
        #expect(container.pageStates == before.pageStates)
        #expect(container.badges == before.badges)
        #expect(
            container.kinds(after: before.lastSequence) == [
                .guardChecked(tabID: "member", source: .tap, allowed: false)
            ])
    }

    @Test(arguments: PolicyPreset.allCases)
    func theLoginGuardAppliesToEverySourceAndIsShouldSelectOnlyForATapTheDelegateIsAskedAbout(preset: PolicyPreset) {
        for source in SelectionSource.allCases {
            var container = TabContainer(app: threeTabApp(NavigationPolicies(preset: preset)))
            let outcome = container.select(.index(2), source: source, isLoggedIn: false, at: startTime)
            #expect(outcome == .refused(tabID: "member", reason: .needsLogin))
            // Three tabs have no More: a More row is a tap on its tab.
            let entry = source == .moreRow ? .tap : source
            let asked = entry == .tap && preset != .seed004
            let expected: ContainerEventKind =
                switch (asked, preset) {
                case (true, .uikit18): .shouldSelectTab(tabID: "member", source: entry, allowed: false)
                case (true, _): .shouldSelect(tabID: "member", source: entry, allowed: false)
                case (false, _): .guardChecked(tabID: "member", source: entry, allowed: false)
                }
            #expect(container.kinds() == [expected])
            #expect(container.selectedTabID == nil)
        }
    }

    @Test func afterLoginTheSameSelectionSucceeds() {
        var container = TabContainer(app: threeTabApp())
        container.tap("home")
        #expect(container.tap("member") == .refused(tabID: "member", reason: .needsLogin))
        #expect(container.tap("member", loggedIn: true) == .selected(tabID: "member"))
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

    @Test func reselectingUnderUIKitAsksTheDelegatePopsAndKeepsTheRootsState() {
        var container = TabContainer(app: threeTabApp(.uiKit))
        container.tap("home")
        container.act(.increment, on: "home")
        #expect(container.pageState(ofTab: "home") == .counter(count: 1))
        let before = container.lastSequence
        #expect(container.tap("home") == .poppedToRoot(tabID: "home"))
        #expect(container.pageState(ofTab: "home") == .counter(count: 1))
        #expect(
            container.kinds(after: before) == [
                .shouldSelect(tabID: "home", source: .tap, allowed: true),
                .poppedToRoot(tabID: "home"),
                .didSelect(tabID: "home", source: .tap),
            ])
    }

    @Test func reselectingPopsTheStackAndTheResetActionIsWhatEmptiesAPage() {
        let app = makeApp([counterTab("home"), newsTab("news", itemIDs: ["a", "b"])], policies: .uiKit)
        var container = TabContainer(app: app)
        container.tap("news")
        container.act(.markRead(itemID: "a"), on: "news")
        #expect(container.push(item: "b", onTab: "news", at: startTime) == .pushed(itemID: "b"))
        #expect(container.pushedItem(ofTab: "news") == "b")
        #expect(container.tap("news") == .poppedToRoot(tabID: "news"))
        #expect(container.pushedItem(ofTab: "news") == nil)
        #expect(container.pageState(ofTab: "news") == .news(readItemIDs: ["a"]))
        #expect(container.badge(ofTab: "news") == .count(1))
        #expect(container.act(.reset, on: "news") == .applied(.news(readItemIDs: [])))
        #expect(container.badge(ofTab: "news") == .count(2))
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
        var vertical = TabContainer(app: threeTabApp(.fsVertical))
        _ = vertical.select(.index(1), source: .code, isLoggedIn: false, at: startTime)
        #expect(vertical.kinds().first == .guardChecked(tabID: "wallet", source: .code, allowed: true))
        // Its first selection runs in the container's viewDidLoad: didSelect before the child appears.
        #expect(
            vertical.kinds().suffix(3) == [
                .didSelect(tabID: "wallet", source: .code), .viewWillAppear(tabID: "wallet"),
                .viewDidAppear(tabID: "wallet"),
            ])

        var uiKit = TabContainer(app: threeTabApp(.uiKit))
        _ = uiKit.select(.index(1), source: .code, isLoggedIn: false, at: startTime)
        #expect(uiKit.selectedTabID == "wallet")
        #expect(uiKit.kinds().last == .viewDidAppear(tabID: "wallet"))
        #expect(!uiKit.kinds().contains { if case .shouldSelect = $0 { true } else { false } })
        #expect(!uiKit.kinds().contains { if case .didSelect = $0 { true } else { false } })

        // Taps still record it under UIKit.
        uiKit.tap("home")
        #expect(uiKit.kinds().last == .didSelect(tabID: "home", source: .tap))
    }

    @Test func eventsHaveReadableDescriptionsAndEncodeToJSON() throws {
        var container = TabContainer(app: threeTabApp())
        container.tap("member")
        let event = try #require(container.log.events.first)
        #expect(event.description == "#1 guard member (tap) → refused (needs login)")
        let json = String(decoding: try JSONEncoder().encode(event.kind), as: UTF8.self)
        #expect(json.contains("\"guardChecked\""))
        #expect(json.contains("\"tabID\":\"member\""))
        let decoder = JSONDecoder()
        decoder.userInfo[.appCatalog] = AppCatalog([container.app])
        let decoded = try decoder.decode(TabContainer.self, from: try JSONEncoder().encode(container))
        #expect(decoded == container)
    }
}
