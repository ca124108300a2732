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
/// event log, after UIKit's container rules. A value: copy it, store it, encode it (its encoded
/// form names the app by id; decoding needs an ``AppCatalog``, see `TabContainer+Coding.swift`).
///
/// A switch from `old` to `new` records, in this order (UIKit's `transition(from:to:)` order):
/// `shouldSelect new`, `childCreated new` (when it has no state yet), `old willMove(toParent: nil)`,
/// `new willMove(toParent:)`, `addChild new`, `old viewWillDisappear`, `new viewWillAppear`,
/// `new view added`, `old view removed`, `old viewDidDisappear`, `new viewDidAppear`,
/// `old removeFromParent`, `new didMove(toParent:)`, `childDiscarded old` (detach only), `didSelect new`.
/// The first selection records only the `new` steps.
public struct TabContainer: Sendable, Equatable {
    public private(set) var app: AppDescription
    /// The selected tab's position in `app.tabs`, -1 before the first selection (4 bytes, not 9).
    private var selectedPosition: Int32 = -1
    /// The positions of the tabs that have a child.
    private var children = TabSet()
    /// The children's states that differ from their page's initial state, by position.
    private var changedStates: [Int: PageState] = [:]
    /// The visible badges (nil: hidden) that differ from the tab's starting badge, by position.
    private var badgeOverrides: [Int: Badge?] = [:]
    public internal(set) var log: EventLog

    public init(app: AppDescription, logCapacity: Int = EventLog.defaultCapacity) {
        self.app = app
        self.log = EventLog(capacity: logCapacity, tabs: app.tabs)
    }

    /// The selected tab's position, nil before the first selection.
    public internal(set) var selectedIndex: Int? {
        get { selectedPosition < 0 ? nil : Int(selectedPosition) }
        set { selectedPosition = newValue.map { Int32(clamping: $0) } ?? -1 }
    }

    /// nil until the first selection (the seeds' -1).
    public var selectedTabID: String? { selectedIndex.map { app.tabs[$0].id } }

    public var selectedTab: TabDescription? { selectedIndex.map { app.tabs[$0] } }

    /// The state of every created child, by tab id: under keepAlive every tab visited so far,
    /// under detach only the selected one.
    public var pageStates: [String: PageState] {
        var states: [String: PageState] = [:]
        for position in app.tabs.indices {
            if let state = childState(at: position) { states[app.tabs[position].id] = state }
        }
        return states
    }

    /// The visible badges, by tab id; a hidden badge has no entry.
    public var badges: [String: Badge] {
        var visible: [String: Badge] = [:]
        for position in app.tabs.indices {
            if let badge = visibleBadge(at: position) { visible[app.tabs[position].id] = badge }
        }
        return visible
    }

    /// The page state a view should show for a tab: its child's state, or the initial state when
    /// it has no child yet. nil for an unknown tab.
    public func pageState(ofTab tabID: String) -> PageState? {
        guard let position = app.index(ofTab: tabID) else { return nil }
        return childState(at: position) ?? app.tabs[position].page.initialState
    }

    /// The tab's badge, nil when hidden.
    public func badge(ofTab tabID: String) -> Badge? { app.index(ofTab: tabID).flatMap { visibleBadge(at: $0) } }

    /// `badge(ofTab:)` of the tab at `position` in the bar, found without comparing ids.
    public func badge(at position: Int) -> Badge? {
        app.tabs.indices.contains(position) ? visibleBadge(at: position) : nil
    }

    // MARK: Storage by position

    /// The child's state at `position`, nil when it has no child.
    func childState(at position: Int) -> PageState? {
        guard children.contains(position) else { return nil }
        return changedStates[position] ?? app.tabs[position].page.initialState
    }

    /// Makes (or, with nil, drops) the child at `position` with `state`.
    mutating func setChildState(_ state: PageState?, at position: Int) {
        guard let state else {
            children.remove(position)
            changedStates[position] = nil
            return
        }
        children.insert(position)
        changedStates[position] = state == app.tabs[position].page.initialState ? nil : state
    }

    func visibleBadge(at position: Int) -> Badge? {
        if let override = changedBadge(at: position) { return override }
        // The two fields read in place: a getter on `app.tabs[position]` copied the whole tab
        // description (its strings and arrays retained, then released) for every badge shown.
        return TabDescription.startingBadge(
            page: app.tabs[position].page, initialBadge: app.tabs[position].initialBadge)
    }

    /// The badge shown at `position` when it is not the tab's starting badge (`.some(nil)`: hidden);
    /// nil while the tab shows its starting badge, `startingBadge(of:)`.
    public func changedBadge(at position: Int) -> Badge?? {
        // Most containers changed no badge: no hashing then.
        badgeOverrides.isEmpty ? nil : badgeOverrides[position]
    }

    mutating func setVisibleBadge(_ badge: Badge?, at position: Int) {
        if badge == Self.startingBadge(of: app.tabs[position]) {
            badgeOverrides[position] = nil
        } else {
            badgeOverrides.updateValue(badge, forKey: position)
        }
    }

    // MARK: Selection

    /// Selects a tab if the rules allow it; see the type's documentation for the events recorded.
    public mutating func select(
        _ target: SelectionTarget, source: SelectionSource, isLoggedIn: Bool, at time: Date
    ) -> SelectionOutcome {
        let position: Int
        switch target {
        case .index(let index):
            guard app.tabs.indices.contains(index) else {
                return unchanged(.outOfRange(index: index, tabCount: app.tabs.count), source: source, at: time)
            }
            position = index
        case .tab(let id):
            guard let found = app.index(ofTab: id) else {
                return unchanged(.unknownTab(id: id), source: source, at: time)
            }
            position = found
        }
        let tab = app.tabs[position]
        if position == selectedIndex {
            guard app.policies.reselect == .popToRoot else {
                return unchanged(.alreadySelected(tabID: tab.id), source: source, at: time)
            }
            setChildState(tab.page.initialState, at: position)
            log.append(.poppedToRoot(tabID: tab.id), at: time)
            refreshDerivedBadge(at: position, time: time)
            return .poppedToRoot(tabID: tab.id)
        }
        if tab.requiresLogin && !isLoggedIn {
            let reason = PageActionRefusal.needsLogin(tabTitle: tab.title).message
            log.append(.shouldSelect(tabID: tab.id, source: source, allowed: false, reason: reason.english), at: time)
            return .needsLogin(then: tab.id, reason: reason)
        }
        log.append(.shouldSelect(tabID: tab.id, source: source, allowed: true, reason: nil), at: time)
        transition(from: selectedTabID, at: selectedIndex, to: position, at: time)
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

    /// Moves the selection from the child of `oldID` (at `oldPosition` in the current tabs, nil when
    /// it is gone from them) to the tab at `new` (or to none), recording UIKit's steps.
    private mutating func transition(from oldID: String?, at oldPosition: Int?, to new: Int?, at time: Date) {
        let newID = new.map { app.tabs[$0].id }
        if let new, childState(at: new) == nil {
            setChildState(app.tabs[new].page.initialState, at: new)
            log.append(.childCreated(tabID: app.tabs[new].id), at: time)
            refreshDerivedBadge(at: new, time: time)
        }
        func record(_ kind: (String) -> ContainerEventKind, _ tabID: String?) {
            if let tabID { log.append(kind(tabID), at: time) }
        }
        record(ContainerEventKind.willMoveToNoParent, oldID)
        record(ContainerEventKind.willMoveToParent, newID)
        record(ContainerEventKind.addChild, newID)
        record(ContainerEventKind.viewWillDisappear, oldID)
        record(ContainerEventKind.viewWillAppear, newID)
        record(ContainerEventKind.viewAdded, newID)
        record(ContainerEventKind.viewRemoved, oldID)
        record(ContainerEventKind.viewDidDisappear, oldID)
        record(ContainerEventKind.viewDidAppear, newID)
        record(ContainerEventKind.removeFromParent, oldID)
        record(ContainerEventKind.didMoveToParent, newID)
        selectedIndex = new
        if let oldID, app.policies.childRetention == .detach || oldPosition == nil {
            if let oldPosition { setChildState(nil, at: oldPosition) }
            log.append(.childDiscarded(tabID: oldID), at: time)
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
        guard let position = app.index(ofTab: tabID) else {
            return refuse(action, tabID, .unknownTab(tabID), at: time)
        }
        let tab = app.tabs[position]
        if tab.requiresLogin && !isLoggedIn { return refuse(action, tabID, .needsLogin(tabTitle: tab.title), at: time) }
        if app.policies.childRetention == .detach && selectedIndex != position {
            return refuse(action, tabID, .tabNotOnScreen(tabTitle: tab.title), at: time)
        }
        let state: PageState
        if let existing = childState(at: position) {
            state = existing
        } else {
            state = tab.page.initialState
            setChildState(state, at: position)
            log.append(.childCreated(tabID: tabID), at: time)
        }
        switch tab.page.apply(action, to: state) {
        case .success(let newState):
            setChildState(newState, at: position)
            log.append(.pageAction(tabID: tabID, action: action, refusal: nil), at: time)
            refreshDerivedBadge(at: position, time: time)
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
        guard let position = app.index(ofTab: tabID) else { return }
        setBadge(badge, at: position, time: time)
    }

    private mutating func setBadge(_ badge: Badge?, at position: Int, time: Date) {
        let visible = badge?.isVisible == true ? badge : nil
        guard visibleBadge(at: position) != visible else { return }
        setVisibleBadge(visible, at: position)
        log.append(.badgeChanged(tabID: app.tabs[position].id, badge: visible), at: time)
    }

    /// The badge a tab shows before anything happens to it (nil: none), decided by its
    /// description alone.
    public static func startingBadge(of tab: TabDescription) -> Badge? { tab.startingBadge }

    private mutating func refreshDerivedBadge(at position: Int, time: Date) {
        guard let state = childState(at: position), let derived = app.tabs[position].page.derivedBadge(for: state)
        else { return }
        setBadge(derived, at: position, time: time)
    }

    // MARK: Replacing the tabs

    /// Replaces the app while running, as setting `viewControllers`: the selected tab stays if its
    /// id still exists, else the tab at the same index, else the first, skipping login-only tabs
    /// when logged out. Page states and badges of tabs that still exist (with the same page kind)
    /// are kept. Records `tabsReplaced`, then the switch's lifecycle steps if the child changed
    /// (no `shouldSelect` or `didSelect`, as UIKit).
    public mutating func replaceTabs(with newApp: AppDescription, isLoggedIn: Bool, at time: Date) {
        let oldApp = app
        let oldIndex = selectedIndex
        let oldSelected = selectedTabID
        var keptStates: [(position: Int, state: PageState)] = []
        for (position, tab) in oldApp.tabs.enumerated() {
            if let state = childState(at: position), let new = newApp.index(ofTab: tab.id),
                newApp.tabs[new].page.kind == state.kind
            {
                keptStates.append((new, state))
            }
        }
        // A hidden badge of a kept tab has no entry, as `badges` shows: it takes the new starting badge.
        let newBadges = newApp.tabs.map { tab in
            oldApp.index(ofTab: tab.id).flatMap { visibleBadge(at: $0) } ?? Self.startingBadge(of: tab)
        }

        app = newApp
        selectedIndex = nil
        children = TabSet()
        changedStates = [:]
        badgeOverrides = [:]
        for (position, state) in keptStates { setChildState(state, at: position) }
        for (position, badge) in newBadges.enumerated() { setVisibleBadge(badge, at: position) }
        log.retarget(to: newApp.tabs)

        var candidates: [Int] = []
        if let oldSelected, let kept = newApp.index(ofTab: oldSelected) { candidates.append(kept) }
        if let oldIndex, newApp.tabs.indices.contains(oldIndex) { candidates.append(oldIndex) }
        candidates += newApp.tabs.indices
        let next = oldSelected == nil ? nil : candidates.first { isLoggedIn || !newApp.tabs[$0].requiresLogin }
        log.append(.tabsReplaced(tabCount: newApp.tabs.count, selectedTabID: next.map { newApp.tabs[$0].id }), at: time)

        if let next, newApp.tabs[next].id == oldSelected {
            selectedIndex = next
            if childState(at: next) == nil {
                setChildState(newApp.tabs[next].page.initialState, at: next)
                log.append(.childCreated(tabID: newApp.tabs[next].id), at: time)
            }
            refreshDerivedBadge(at: next, time: time)
        } else if let oldSelected {
            transition(from: oldSelected, at: newApp.index(ofTab: oldSelected), to: next, at: time)
        }
    }

    // MARK: The bottom bar

    /// The bottom bar's items, as UITabBarController lays them out: every tab when they fit,
    /// otherwise the first `maxVisible - 1` tabs and a More item listing the rest, selected when
    /// the selected tab is one of them.
    public func bottomBarItems(maxVisible: Int = 5) -> [BarItem] {
        let shape = bottomBarShape(maxVisible: maxVisible)
        // By index: `enumerated()` would copy every tab description just to read its id.
        var items = (0..<shape.tabsShown).map { index in
            BarItem.tab(index: index, tabID: app.tabs[index].id, isSelected: index == selectedIndex)
        }
        if let moreSelected = shape.moreSelected {
            items.append(.more(tabIDs: app.tabs[shape.tabsShown...].map(\.id), isSelected: moreSelected))
        }
        return items
    }

    /// `bottomBarItems` in two numbers, for a bar drawn without building the items: the tabs
    /// shown (the first `tabsShown`), and whether the More item follows (nil: it does not) and
    /// is selected.
    public func bottomBarShape(maxVisible: Int = 5) -> (tabsShown: Int, moreSelected: Bool?) {
        let visible = max(2, maxVisible)
        guard app.tabs.count > visible else { return (app.tabs.count, nil) }
        return (visible - 1, selectedIndex.map { $0 >= visible - 1 } ?? false)
    }
}

/// A set of tab positions: a bit mask, with a set for positions past 63 (which apps never reach).
struct TabSet: Sendable, Equatable {
    private var low: UInt64 = 0
    private var high: Set<Int> = []

    func contains(_ position: Int) -> Bool {
        position < 64 ? low & (1 << UInt64(position)) != 0 : high.contains(position)
    }

    mutating func insert(_ position: Int) {
        if position < 64 { low |= 1 << UInt64(position) } else { high.insert(position) }
    }

    mutating func remove(_ position: Int) {
        if position < 64 { low &= ~(1 << UInt64(position)) } else { high.remove(position) }
    }
}

/// One item of the bottom bar.
public enum BarItem: Sendable, Equatable {
    case tab(index: Int, tabID: String, isSelected: Bool)
    /// UIKit's More item: the tabs that did not fit, in order.
    case more(tabIDs: [String], isSelected: Bool)
}

extension TabDescription {
    /// The badge a tab shows before anything happens to it.
    var startingBadge: Badge? { Self.startingBadge(page: page, initialBadge: initialBadge) }

    static func startingBadge(page: PageDescription, initialBadge: Badge?) -> Badge? {
        // Only a news page derives its badge: another kind's initial state (a checklist's sorts
        // its ids) would be built for nothing.
        let derived = page.kind == .news ? page.derivedBadge(for: page.initialState) : nil
        let badge = derived ?? initialBadge
        return badge?.isVisible == true ? badge : nil
    }
}
