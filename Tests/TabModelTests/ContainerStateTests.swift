import Foundation
import Testing

@testable import TabModel

@Suite struct ContainerStateTests {
    @Test func keepAliveKeepsPageStateAcrossSwitches() {
        var container = TabContainer(app: threeTabApp(.seed004))
        container.tap("home")
        container.act(.increment, on: "home")
        container.act(.increment, on: "home")
        container.tap("wallet")
        container.tap("home")
        #expect(container.pageState(ofTab: "home") == .counter(count: 2))
        #expect(container.kinds().filter { $0 == .childCreated(tabID: "home") }.count == 1)
    }

    @Test(arguments: PolicyPreset.allCases)
    func onlyUITabBarControllersBarHidesForHidesBottomBarWhenPushed(preset: PolicyPreset) {
        var app = makeApp(
            [counterTab("home"), newsTab("news", itemIDs: ["a"])], policies: NavigationPolicies(preset: preset))
        app.hidesBottomBarWhenPushed = true
        var container = TabContainer(app: app)
        container.tap("news")
        _ = container.push(item: "a", onTab: "news", at: startTime)
        #expect(container.hidesBar == preset.isUIKit)
    }

    @Test func detachStartsFreshOnTheNextVisit() {
        var container = TabContainer(app: threeTabApp(.detached(.fsVertical)))
        container.tap("home")
        container.act(.increment, on: "home")
        container.tap("wallet")
        #expect(container.pageStates["home"] == nil)
        container.tap("home")
        #expect(container.pageState(ofTab: "home") == .counter(count: 0))
        #expect(container.kinds().filter { $0 == .childCreated(tabID: "home") }.count == 2)
    }

    @Test func anActionFromAStaleWindowSelectsItsTabFirstThenApplies() {
        var container = TabContainer(app: threeTabApp(.fsVertical))
        container.tap("home")
        let before = container.lastSequence
        #expect(container.act(.increment, on: "wallet") == .applied(.counter(count: 1)))
        #expect(container.selectedTabID == "wallet")
        let kinds = container.kinds(after: before)
        #expect(kinds.first == .staleAction(tabID: "wallet", selectedTabID: "home"))
        #expect(kinds[1] == .guardChecked(tabID: "wallet", source: .code, allowed: true))
        #expect(kinds.last == .pageAction(tabID: "wallet", action: .increment, refusal: nil))
        #expect(container.pageState(ofTab: "wallet") == .counter(count: 1))
    }

    @Test func anActionBeforeAnySelectionShowsItsTabFirst() {
        var container = TabContainer(app: threeTabApp(.seed004))
        #expect(container.act(.increment, on: "wallet") == .applied(.counter(count: 1)))
        #expect(
            container.kinds() == [
                .staleAction(tabID: "wallet", selectedTabID: nil),
                .guardChecked(tabID: "wallet", source: .code, allowed: true),
                .childCreated(tabID: "home"),
                .childCreated(tabID: "wallet"),
                .childCreated(tabID: "member"),
                .willMoveToParent(tabID: "wallet"),
                .addChild(tabID: "wallet"),
                .viewDidLoad(tabID: "wallet"),
                .viewAdded(tabID: "wallet"),
                .viewWillAppear(tabID: "wallet"),
                .viewDidAppear(tabID: "wallet"),
                .pageAction(tabID: "wallet", action: .increment, refusal: nil),
            ])
    }

    @Test func actionsAreGuardedAndRefusalsLogged() {
        var container = TabContainer(app: threeTabApp(.seed004))
        #expect(container.act(.increment, on: "member") == .refused(.needsLogin(tabTitle: text("Member"))))
        #expect(container.act(.increment, on: "member", loggedIn: true) == .applied(.counter(count: 1)))
        #expect(container.act(.increment, on: "ghost") == .refused(.unknownTab("ghost")))
        #expect(
            container.act(.markAllRead, on: "home") == .refused(.unsupported(action: "markAllRead", kind: .counter)))
        #expect(
            container.kinds().last
                == .pageAction(
                    tabID: "home", action: .markAllRead, refusal: .unsupported(action: "markAllRead", kind: .counter)))
        for _ in 0..<3 { container.act(.increment, on: "home") }
        #expect(container.act(.increment, on: "home") == .refused(.counterAtMaximum(3)))
        #expect(container.pageState(ofTab: "home") == .counter(count: 3))
    }

    @Test func newsBadgeCountsUnreadAndHidesAtZero() {
        var container = TabContainer(app: makeApp([counterTab("home"), newsTab("news", itemIDs: ["a", "b"])]))
        #expect(container.badge(ofTab: "news") == .count(2))
        container.tap("news")
        container.act(.markRead(itemID: "a"), on: "news")
        #expect(container.badge(ofTab: "news") == .count(1))
        #expect(container.kinds().last == .badgeChanged(tabID: "news", badge: .count(1)))
        #expect(container.act(.markRead(itemID: "zzz"), on: "news") == .refused(.unknownItem("zzz")))
        container.act(.markRead(itemID: "b"), on: "news")
        #expect(container.badge(ofTab: "news") == nil)
        #expect(container.badges["news"] == nil)
        #expect(container.kinds().last == .badgeChanged(tabID: "news", badge: nil))
    }

    @Test func detachedNewsResetsItsBadgeWhenRecreated() {
        let app = makeApp(
            [counterTab("home"), newsTab("news", itemIDs: ["a", "b"])], policies: .detached(.fsVertical))
        var container = TabContainer(app: app)
        container.tap("news")
        container.act(.markAllRead, on: "news")
        #expect(container.badge(ofTab: "news") == nil)
        container.tap("home")
        // Discarded with its state: the derived badge follows at once, not on the next visit.
        #expect(container.badge(ofTab: "news") == .count(2))
        #expect(container.kinds().suffix(3).contains(.badgeChanged(tabID: "news", badge: .count(2))))
        container.tap("news")
        #expect(container.badge(ofTab: "news") == .count(2))
    }

    @Test func aBadgeBoundToACounterFollowsItsCountAndItsReset() {
        var stamps = counterTab("stamps")
        stamps.badgeBinding = .count
        var container = TabContainer(app: makeApp([counterTab("home"), stamps], policies: .uiKit))
        #expect(container.badge(ofTab: "stamps") == nil)
        container.tap("stamps")
        container.act(.increment, on: "stamps")
        container.act(.increment, on: "stamps")
        #expect(container.badge(ofTab: "stamps") == .count(2))
        container.act(.reset, on: "stamps")
        #expect(container.badge(ofTab: "stamps") == nil)
        #expect(container.pageState(ofTab: "stamps") == .counter(count: 0))
    }

    @Test func initialAndSetBadgesHideWhenEmpty() {
        var container = TabContainer(
            app: makeApp([
                counterTab("a", badge: .text(LocalizedText(["en": "New"]))), counterTab("b", badge: .count(0)),
            ]))
        #expect(container.badge(ofTab: "a")?.label == "New")
        #expect(container.badge(ofTab: "b") == nil)
        container.setBadge(.text(LocalizedText(["en": ""])), onTab: "a", at: startTime)
        #expect(container.badge(ofTab: "a") == nil)
        container.setBadge(.count(120), onTab: "b", at: startTime)
        #expect(container.badge(ofTab: "b")?.label == "99+")
        #expect(
            container.kinds() == [.badgeChanged(tabID: "a", badge: nil), .badgeChanged(tabID: "b", badge: .count(120))])
    }

    @Test func moreThanFiveTabsShowFourAndMore() {
        let tabs = (1...7).map { counterTab("t\($0)") }
        var container = TabContainer(app: makeApp(tabs))
        container.tap("t2")
        let items = container.bottomBarItems()
        #expect(items.count == 5)
        #expect(items[1] == .tab(index: 1, tabID: "t2", isSelected: true))
        #expect(items[4] == .more(tabIDs: ["t5", "t6", "t7"], isSelected: false))
        container.tap("t6")
        let after = container.bottomBarItems()
        #expect(after[4] == .more(tabIDs: ["t5", "t6", "t7"], isSelected: true))
        #expect(!after.contains { if case .tab(_, _, true) = $0 { true } else { false } })
    }

    @Test func fiveTabsFitWithoutMore() {
        let container = TabContainer(app: makeApp((1...5).map { counterTab("t\($0)") }))
        let items = container.bottomBarItems(maxVisible: 5)
        #expect(items.count == 5)
        #expect(!items.contains { if case .more = $0 { true } else { false } })
    }

    @Test func replacingTabsKeepsTheSelectedIDAndItsState() {
        var container = TabContainer(app: threeTabApp())
        container.tap("wallet")
        container.act(.increment, on: "wallet")
        let reordered = makeApp([counterTab("new"), counterTab("home"), counterTab("wallet")])
        container.replaceTabs(with: reordered, isLoggedIn: false, at: startTime)
        #expect(container.selectedTabID == "wallet")
        #expect(container.selectedIndex == 2)
        #expect(container.pageState(ofTab: "wallet") == .counter(count: 1))
        // Seed 004 made Member's child with the container but never added it: it is only dropped.
        #expect(
            container.kinds().suffix(3) == [
                .tabsReplaced(tabCount: 3, selectedTabID: "wallet"), .childDiscarded(tabID: "member"),
                .guardChecked(tabID: "wallet", source: .code, allowed: true),
            ])
    }

    @Test func replacingTabsFallsBackToTheSameIndex() {
        var container = TabContainer(app: threeTabApp())
        container.tap("wallet")
        container.replaceTabs(with: makeApp([counterTab("x"), counterTab("y")]), isLoggedIn: false, at: startTime)
        #expect(container.selectedTabID == "y")
        #expect(container.pageStates["wallet"] == nil)
        #expect(container.kinds().contains(.childDiscarded(tabID: "wallet")))
        #expect(container.kinds().contains(.removeFromParent(tabID: "wallet")))
        #expect(container.kinds().last == .viewDidAppear(tabID: "y"))
    }

    /// Issue 17 defect 2: four open tabs, the selected one removed, one tab of the new list login-only.
    @Test(arguments: PolicyPreset.allCases)
    func replacingTabsNeverMovesALoggedOutVisitorOntoALoginOnlyTab(preset: PolicyPreset) {
        let ids = ["t0", "t1", "t2", "t3"]
        for removed in ids.indices {
            for locked in 0..<(ids.count - 1) {
                var container = TabContainer(
                    app: makeApp(ids.map { counterTab($0) }, policies: NavigationPolicies(preset: preset)))
                container.tap(ids[removed])
                let remaining = ids.filter { $0 != ids[removed] }
                let newTabs = remaining.enumerated().map { counterTab($1, requiresLogin: $0 == locked) }
                container.replaceTabs(
                    with: makeApp(newTabs, policies: container.app.policies), isLoggedIn: false, at: startTime)
                // UIKit's rule: the same index, else the first; skipping the login-only tab.
                let candidates = [removed < remaining.count ? removed : nil].compactMap { $0 } + remaining.indices
                let expected = remaining[candidates.first { $0 != locked } ?? 0]
                #expect(container.selectedTabID == expected, "removed \(removed), locked \(locked)")
                #expect(container.selectedTab?.requiresLogin == false)
                #expect(container.kinds().contains(.guardChecked(tabID: expected, source: .code, allowed: true)))
                if candidates.first == locked {
                    #expect(
                        container.kinds().contains(
                            .guardChecked(tabID: remaining[locked], source: .code, allowed: false)))
                }
            }
        }
    }

    @Test func aKeptTabThatNowNeedsALoginIsLeftForTheFirstOpenOne() {
        var container = TabContainer(app: threeTabApp(.uiKit))
        container.tap("wallet")
        let locked = makeApp(
            [counterTab("home"), counterTab("wallet", requiresLogin: true), counterTab("member")], policies: .uiKit)
        container.replaceTabs(with: locked, isLoggedIn: false, at: startTime)
        #expect(container.selectedTabID == "home")
        var loggedIn = TabContainer(app: threeTabApp(.uiKit))
        loggedIn.tap("wallet")
        loggedIn.replaceTabs(with: locked, isLoggedIn: true, at: startTime)
        #expect(loggedIn.selectedTabID == "wallet")
    }

    @Test func replacingTabsUnderUIKitRemovesTheGoneChildrenAndAddsTheNewOnes() {
        var container = TabContainer(app: threeTabApp(.uiKit))
        container.tap("home")
        let before = container.lastSequence
        let newApp = makeApp([counterTab("home"), counterTab("wallet"), counterTab("extra")], policies: .uiKit)
        container.replaceTabs(with: newApp, isLoggedIn: false, at: startTime)
        #expect(
            container.kinds(after: before) == [
                .tabsReplaced(tabCount: 3, selectedTabID: "home"),
                .willMoveToNoParent(tabID: "member"),
                .removeFromParent(tabID: "member"),
                .didMoveToNoParent(tabID: "member"),
                .childDiscarded(tabID: "member"),
                .childCreated(tabID: "extra"),
                .willMoveToParent(tabID: "extra"),
                .addChild(tabID: "extra"),
                .didMoveToParent(tabID: "extra"),
                .guardChecked(tabID: "home", source: .code, allowed: true),
            ])
    }

    @Test func aFirstVisitEntersOnTheFirstTabTheGuardAllows() {
        let app = makeApp([counterTab("vault", requiresLogin: true), counterTab("home"), counterTab("pay")])
        #expect(TabContainer(app: app).entryTabID(isLoggedIn: false) == "home")
        #expect(TabContainer(app: app).entryTabID(isLoggedIn: true) == "vault")
        var visited = TabContainer(app: app)
        visited.tap("pay")
        #expect(visited.entryTabID(isLoggedIn: false) == "pay")
    }

    @Test func replacingTabsFallsBackToTheFirst() {
        var container = TabContainer(app: threeTabApp())
        container.tap("member", loggedIn: true)
        container.replaceTabs(with: makeApp([counterTab("x"), counterTab("y")]), isLoggedIn: false, at: startTime)
        #expect(container.selectedTabID == "x")
    }

    @Test func replacingTabsBeforeAnySelectionSelectsNothing() {
        var container = TabContainer(app: threeTabApp())
        container.replaceTabs(with: makeApp([counterTab("x"), counterTab("y")]), isLoggedIn: false, at: startTime)
        #expect(container.selectedTabID == nil)
        #expect(container.kinds() == [.tabsReplaced(tabCount: 2, selectedTabID: nil)])
    }

    @Test func theLogKeepsOnlyTheNewestEvents() {
        var container = TabContainer(app: threeTabApp(), logCapacity: 10)
        for _ in 0..<4 { container.tap("home") }
        container.tap("wallet")
        let log = container.log
        #expect(log.events.count == 10)
        #expect(log.events.last?.sequence == log.nextSequence - 1)
        #expect(log.droppedCount == log.nextSequence - 1 - 10)
        #expect(log.events.map(\.sequence) == Array((log.nextSequence - 10)..<log.nextSequence))
        #expect(EventLog().capacity == 500)
    }
}

/// What a follower takes when they explore on their own (`handedOver`): the screen shown, and
/// nothing the presenter did elsewhere.
@Suite struct HandOverTests {
    @Test func aFollowerTakesTheVisibleTabsStateAndNoLog() {
        var container = TabContainer(app: threeTabApp(.seed004))
        container.tap("home")
        container.act(.increment, on: "home")
        container.tap("member", loggedIn: true)
        container.act(.increment, on: "member", loggedIn: true)
        container.tap("wallet", loggedIn: true)
        container.act(.increment, on: "wallet", loggedIn: true)
        container.act(.increment, on: "wallet", loggedIn: true)
        let taken = container.handedOver()
        #expect(taken.selectedTabID == "wallet")
        #expect(taken.pageStates == ["wallet": .counter(count: 2)])
        #expect(taken.log.events.isEmpty)
        #expect(taken.pageState(ofTab: "member") != .counter(count: 1))
    }

    @Test func aLoginOnlyTabOnScreenIsNotHandedOver() {
        var container = TabContainer(app: threeTabApp(.seed004))
        container.tap("member", loggedIn: true)
        container.act(.increment, on: "member", loggedIn: true)
        let taken = container.handedOver()
        #expect(taken.selectedTabID == nil)
        #expect(taken.pageStates.isEmpty)
        #expect(taken.log.events.isEmpty)
    }

    /// Under uikit, More's stack and the views loaded are the screen's too: a tab pushed on More
    /// off screen, or a login-only one on it, is not handed over, and a tab that was not is made
    /// and loads its view afresh.
    @Test func moresStackAndLoadedViewsGoWithTheTabsTheyBelongTo() {
        var container = TabContainer(app: TableScenario.moreApp(.uikit))
        TableScenario.inboxOnMore(&container)
        container.tap("news", in: .bottom)
        container.tap("home", in: .bottom)
        var taken = container.handedOver()
        #expect(taken.selectedTabID == "home")
        #expect(taken.tapMore() == .list)
        taken.tap("news", in: .bottom)
        #expect(taken.kinds().contains(.viewDidLoad(tabID: "news")))
        var member = TabContainer(app: TableScenario.moreApp(.uikit))
        TableScenario.moreList(&member)
        member.chooseRow("member", loggedIn: true)
        var memberTaken = member.handedOver()
        #expect(memberTaken.selectedTabID == nil)
        memberTaken.tap("home", in: .bottom)
        // Home is the first display: nothing was on screen to disappear.
        #expect(!memberTaken.log.events.contains { $0.kind.description.contains("Disappear") })
    }
}
