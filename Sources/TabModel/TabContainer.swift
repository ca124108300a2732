import Foundation

/// Which tab a selection asks for.
public enum SelectionTarget: Sendable, Equatable {
    /// A position in the bar; anything outside `0..<count` changes nothing.
    case index(Int)
    case tab(String)
}

/// What a selection did.
public enum SelectionOutcome: Sendable, Equatable {
    case selected(tabID: String)
    /// The selected tab was chosen again under the popToRoot policy: its page is back to its initial state.
    case poppedToRoot(tabID: String)
    case unchanged(UnchangedReason)
    /// The tab needs a logged-in visitor; after login, select `then` again.
    case needsLogin(then: String, reason: LocalizedText)
}

/// What a page action did.
public enum PageActionOutcome: Sendable, Equatable {
    case applied(PageState)
    case refused(PageActionRefusal)
}

/// The tab container of one visitor: the selection, each child page's state, the badges and the
/// event log, after UIKit's container rules. A value: copy it, store it, encode it.
///
/// A switch from `old` to `new` records, in this order (UIKit's `transition(from:to:)` order):
/// `shouldSelect new`, `childCreated new` (when it has no state yet), `old willMove(toParent: nil)`,
/// `new willMove(toParent:)`, `addChild new`, `old viewWillDisappear`, `new viewWillAppear`,
/// `new view added`, `old view removed`, `old viewDidDisappear`, `new viewDidAppear`,
/// `old removeFromParent`, `new didMove(toParent:)`, `childDiscarded old` (detach only), `didSelect new`.
/// The first selection records only the `new` steps.
public struct TabContainer: Sendable, Equatable, Codable {
    public private(set) var app: AppDescription
    /// nil until the first selection (the seeds' -1).
    public private(set) var selectedTabID: String?
    /// The state of every created child, by tab id: under keepAlive every tab visited so far,
    /// under detach only the selected one.
    public private(set) var pageStates: [String: PageState] = [:]
    /// The visible badges, by tab id; a hidden badge has no entry.
    public private(set) var badges: [String: Badge] = [:]
    public private(set) var log: EventLog

    public init(app: AppDescription, logCapacity: Int = EventLog.defaultCapacity) {
        self.app = app
        self.log = EventLog(capacity: logCapacity)
        for tab in app.tabs {
            badges[tab.id] = Self.startingBadge(of: tab)
        }
    }

    /// The selected tab's position, nil before the first selection.
    public var selectedIndex: Int? { selectedTabID.flatMap { app.index(ofTab: $0) } }

    public var selectedTab: TabDescription? { selectedTabID.flatMap { app.tab(id: $0) } }

    /// The page state a view should show for a tab: its child's state, or the initial state when
    /// it has no child yet. nil for an unknown tab.
    public func pageState(ofTab tabID: String) -> PageState? {
        pageStates[tabID] ?? app.tab(id: tabID)?.page.initialState
    }

    /// The tab's badge, nil when hidden.
    public func badge(ofTab tabID: String) -> Badge? { badges[tabID] }

    // MARK: Selection

    /// Selects a tab if the rules allow it; see the type's documentation for the events recorded.
    public mutating func select(
        _ target: SelectionTarget, source: SelectionSource, isLoggedIn: Bool, at time: Date
    ) -> SelectionOutcome {
        let tab: TabDescription
        switch target {
        case .index(let index):
            guard app.tabs.indices.contains(index) else {
                return unchanged(.outOfRange(index: index, tabCount: app.tabs.count), source: source, at: time)
            }
            tab = app.tabs[index]
        case .tab(let id):
            guard let found = app.tab(id: id) else { return unchanged(.unknownTab(id: id), source: source, at: time) }
            tab = found
        }
        if tab.id == selectedTabID {
            guard app.policies.reselect == .popToRoot else {
                return unchanged(.alreadySelected(tabID: tab.id), source: source, at: time)
            }
            pageStates[tab.id] = tab.page.initialState
            log.append(.poppedToRoot(tabID: tab.id), at: time)
            refreshDerivedBadge(of: tab, at: time)
            return .poppedToRoot(tabID: tab.id)
        }
        if tab.requiresLogin && !isLoggedIn {
            let reason = PageActionRefusal.needsLogin(tabTitle: tab.title).message
            log.append(.shouldSelect(tabID: tab.id, source: source, allowed: false, reason: reason.english), at: time)
            return .needsLogin(then: tab.id, reason: reason)
        }
        log.append(.shouldSelect(tabID: tab.id, source: source, allowed: true, reason: nil), at: time)
        transition(to: tab, at: time)
        if source != .code || app.policies.didSelectForProgrammaticSelection {
            log.append(.didSelect(tabID: tab.id, source: source), at: time)
        }
        return .selected(tabID: tab.id)
    }

    /// Leaves a login-only tab after the visitor logs out: selects the first tab open to everyone
    /// (as code). nil when the selected tab needs no login, so nothing changed.
    public mutating func visitorLoggedOut(at time: Date) -> SelectionOutcome? {
        guard let selected = selectedTab, selected.requiresLogin,
            let open = app.tabs.first(where: { !$0.requiresLogin })
        else { return nil }
        return select(.tab(open.id), source: .code, isLoggedIn: false, at: time)
    }

    private mutating func unchanged(_ reason: UnchangedReason, source: SelectionSource, at time: Date)
        -> SelectionOutcome
    {
        log.append(.selectionUnchanged(source: source, reason: reason), at: time)
        return .unchanged(reason)
    }

    /// Moves the selection from the current child to `new` (or to none), recording UIKit's steps.
    private mutating func transition(to new: TabDescription?, at time: Date) {
        let old = selectedTabID
        if let new, pageStates[new.id] == nil {
            pageStates[new.id] = new.page.initialState
            log.append(.childCreated(tabID: new.id), at: time)
            refreshDerivedBadge(of: new, at: time)
        }
        func record(_ kind: (String) -> ContainerEventKind, _ tabID: String?) {
            if let tabID { log.append(kind(tabID), at: time) }
        }
        record(ContainerEventKind.willMoveToNoParent, old)
        record(ContainerEventKind.willMoveToParent, new?.id)
        record(ContainerEventKind.addChild, new?.id)
        record(ContainerEventKind.viewWillDisappear, old)
        record(ContainerEventKind.viewWillAppear, new?.id)
        record(ContainerEventKind.viewAdded, new?.id)
        record(ContainerEventKind.viewRemoved, old)
        record(ContainerEventKind.viewDidDisappear, old)
        record(ContainerEventKind.viewDidAppear, new?.id)
        record(ContainerEventKind.removeFromParent, old)
        record(ContainerEventKind.didMoveToParent, new?.id)
        selectedTabID = new?.id
        if let old, app.policies.childRetention == .detach || app.tab(id: old) == nil {
            pageStates[old] = nil
            log.append(.childDiscarded(tabID: old), at: time)
        }
    }

    // MARK: Page actions

    /// Applies a visitor's action to a tab's page, creating its child first under keepAlive.
    /// Refused when the tab needs login and the visitor is logged out, and under detach when the
    /// tab is not the selected one (it has no child). Every attempt is logged.
    @discardableResult
    public mutating func perform(_ action: PageAction, onTab tabID: String, isLoggedIn: Bool, at time: Date)
        -> PageActionOutcome
    {
        guard let tab = app.tab(id: tabID) else { return refuse(action, tabID, .unknownTab(tabID), at: time) }
        if tab.requiresLogin && !isLoggedIn { return refuse(action, tabID, .needsLogin(tabTitle: tab.title), at: time) }
        if app.policies.childRetention == .detach && selectedTabID != tabID {
            return refuse(action, tabID, .tabNotOnScreen(tabTitle: tab.title), at: time)
        }
        let state: PageState
        if let existing = pageStates[tabID] {
            state = existing
        } else {
            state = tab.page.initialState
            pageStates[tabID] = state
            log.append(.childCreated(tabID: tabID), at: time)
        }
        switch tab.page.apply(action, to: state) {
        case .success(let newState):
            pageStates[tabID] = newState
            log.append(.pageAction(tabID: tabID, action: action, refusal: nil), at: time)
            refreshDerivedBadge(of: tab, at: time)
            return .applied(newState)
        case .failure(let refusal):
            return refuse(action, tabID, refusal, at: time)
        }
    }

    private mutating func refuse(_ action: PageAction, _ tabID: String, _ refusal: PageActionRefusal, at time: Date)
        -> PageActionOutcome
    {
        log.append(.pageAction(tabID: tabID, action: action, refusal: refusal), at: time)
        return .refused(refusal)
    }

    // MARK: Badges

    /// Sets or hides (nil, zero, empty text) a tab's badge, as `badgeValue` would; logged when it changes.
    public mutating func setBadge(_ badge: Badge?, onTab tabID: String, at time: Date) {
        guard app.tab(id: tabID) != nil else { return }
        let visible = badge?.isVisible == true ? badge : nil
        guard badges[tabID] != visible else { return }
        badges[tabID] = visible
        log.append(.badgeChanged(tabID: tabID, badge: visible), at: time)
    }

    private static func startingBadge(of tab: TabDescription) -> Badge? {
        let badge = tab.page.derivedBadge(for: tab.page.initialState) ?? tab.initialBadge
        return badge?.isVisible == true ? badge : nil
    }

    private mutating func refreshDerivedBadge(of tab: TabDescription, at time: Date) {
        guard let state = pageStates[tab.id], let derived = tab.page.derivedBadge(for: state) else { return }
        setBadge(derived, onTab: tab.id, at: time)
    }

    // MARK: Replacing the tabs

    /// Replaces the app while running, as setting `viewControllers`: the selected tab stays if its
    /// id still exists, else the tab at the same index, else the first, skipping login-only tabs
    /// when logged out. Page states and badges of tabs that still exist (with the same page kind)
    /// are kept. Records `tabsReplaced`, then the switch's lifecycle steps if the child changed
    /// (no `shouldSelect` or `didSelect`, as UIKit).
    public mutating func replaceTabs(with newApp: AppDescription, isLoggedIn: Bool, at time: Date) {
        let oldIndex = selectedIndex
        let oldSelected = selectedTabID
        app = newApp
        pageStates = pageStates.filter { tabID, state in newApp.tab(id: tabID)?.page.kind == state.kind }
        var newBadges: [String: Badge] = [:]
        for tab in newApp.tabs {
            newBadges[tab.id] = badges[tab.id] ?? Self.startingBadge(of: tab)
        }
        badges = newBadges

        var candidates: [TabDescription] = []
        if let oldSelected, let kept = newApp.tab(id: oldSelected) { candidates.append(kept) }
        if let oldIndex, newApp.tabs.indices.contains(oldIndex) { candidates.append(newApp.tabs[oldIndex]) }
        candidates += newApp.tabs
        let next = oldSelected == nil ? nil : candidates.first { isLoggedIn || !$0.requiresLogin }
        log.append(.tabsReplaced(tabCount: newApp.tabs.count, selectedTabID: next?.id), at: time)

        if let next, next.id == oldSelected {
            if pageStates[next.id] == nil {
                pageStates[next.id] = next.page.initialState
                log.append(.childCreated(tabID: next.id), at: time)
            }
            refreshDerivedBadge(of: next, at: time)
        } else if oldSelected != nil {
            transition(to: next, at: time)
        }
    }

    // MARK: The bottom bar

    /// The bottom bar's items, as UITabBarController lays them out: every tab when they fit,
    /// otherwise the first `maxVisible - 1` tabs and a More item listing the rest, selected when
    /// the selected tab is one of them.
    public func bottomBarItems(maxVisible: Int = 5) -> [BarItem] {
        let visible = max(2, maxVisible)
        let tabs = app.tabs.enumerated().map { index, tab in
            BarItem.tab(index: index, tabID: tab.id, isSelected: tab.id == selectedTabID)
        }
        guard tabs.count > visible else { return tabs }
        let hidden = app.tabs[(visible - 1)...].map(\.id)
        let moreSelected = selectedTabID.map { hidden.contains($0) } ?? false
        return Array(tabs[..<(visible - 1)]) + [.more(tabIDs: hidden, isSelected: moreSelected)]
    }
}

/// One item of the bottom bar.
public enum BarItem: Sendable, Equatable {
    case tab(index: Int, tabID: String, isSelected: Bool)
    /// UIKit's More item: the tabs that did not fit, in order.
    case more(tabIDs: [String], isSelected: Bool)
}
