import Foundation
import Testing

@testable import TabModel

@Suite struct ContainerStateTests {
    @Test func keepAliveKeepsPageStateAcrossSwitches() {
        var container = TabContainer(app: threeTabApp(.seeds))
        container.tap("home")
        container.act(.increment, on: "home")
        container.act(.increment, on: "home")
        container.tap("wallet")
        container.tap("home")
        #expect(container.pageState(ofTab: "home") == .counter(count: 2))
        #expect(container.kinds().filter { $0 == .childCreated(tabID: "home") }.count == 1)
    }

    @Test func detachStartsFreshOnTheNextVisit() {
        var container = TabContainer(app: threeTabApp(.detachSeeds))
        container.tap("home")
        container.act(.increment, on: "home")
        container.tap("wallet")
        #expect(container.pageStates["home"] == nil)
        container.tap("home")
        #expect(container.pageState(ofTab: "home") == .counter(count: 0))
        #expect(container.kinds().filter { $0 == .childCreated(tabID: "home") }.count == 2)
    }

    @Test func detachRefusesActionsOnTabsNotOnScreen() {
        var container = TabContainer(app: threeTabApp(.detachSeeds))
        container.tap("home")
        #expect(container.act(.increment, on: "wallet") == .refused(.tabNotOnScreen(tabTitle: text("Wallet"))))
        #expect(container.pageStates["wallet"] == nil)
    }

    @Test func keepAliveCreatesTheChildForAnActionOnAnUnvisitedTab() {
        var container = TabContainer(app: threeTabApp(.seeds))
        #expect(container.act(.increment, on: "wallet") == .applied(.counter(count: 1)))
        #expect(
            container.kinds() == [
                .childCreated(tabID: "wallet"),
                .pageAction(tabID: "wallet", action: .increment, refusal: nil),
            ])
    }

    @Test func actionsAreGuardedAndRefusalsLogged() {
        var container = TabContainer(app: threeTabApp(.seeds))
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
        let app = makeApp([counterTab("home"), newsTab("news", itemIDs: ["a", "b"])], policies: .detachSeeds)
        var container = TabContainer(app: app)
        container.tap("news")
        container.act(.markAllRead, on: "news")
        #expect(container.badge(ofTab: "news") == nil)
        container.tap("home")
        container.tap("news")
        #expect(container.badge(ofTab: "news") == .count(2))
    }

    @Test func initialAndSetBadgesHideWhenEmpty() {
        var container = TabContainer(
            app: makeApp([counterTab("a", badge: .text("New")), counterTab("b", badge: .count(0))]))
        #expect(container.badge(ofTab: "a")?.label == "New")
        #expect(container.badge(ofTab: "b") == nil)
        container.setBadge(.text(""), onTab: "a", at: startTime)
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
        #expect(container.kinds().last == .tabsReplaced(tabCount: 3, selectedTabID: "wallet"))
    }

    @Test func replacingTabsFallsBackToTheSameIndex() {
        var container = TabContainer(app: threeTabApp())
        container.tap("wallet")
        container.replaceTabs(with: makeApp([counterTab("x"), counterTab("y")]), isLoggedIn: false, at: startTime)
        #expect(container.selectedTabID == "y")
        #expect(container.pageStates["wallet"] == nil)
        #expect(container.kinds().contains(.childDiscarded(tabID: "wallet")))
        #expect(container.kinds().suffix(2) == [.didMoveToParent(tabID: "y"), .childDiscarded(tabID: "wallet")])
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
