import Foundation

/// The tab container of one visitor: the selection, each child page's state, each tab's
/// navigation stack, the badges and the event log, after the rules of the controller its app's
/// ``PolicyPreset`` names. A value: copy it, store it, encode it (its encoded form names the app
/// by id; decoding needs an ``AppCatalog``, see `TabContainer+Coding.swift`).
///
/// Every entry path is guarded: a login-only tab is never selected for a logged-out visitor.
/// The steps each preset records are in `TabContainer+Containment.swift`, and per scenario in
/// docs/container.md (a test checks that table against this type).
public struct TabContainer: Sendable, Equatable {
    public private(set) var app: AppDescription
    /// The selected tab's position in `app.tabs`, -1 before the first selection (4 bytes, not 9).
    private var selectedPosition: Int32 = -1
    /// The positions of the tabs that have a child.
    private var children = TabSet()
    /// The positions of the children whose root screen has loaded its view (`viewDidLoad`).
    private var loadedViews = TabSet()
    /// The children's states that differ from their page's initial state, by position.
    private var changedStates: [Int: PageState] = [:]
    /// The visible badges (nil: hidden) that differ from the tab's starting badge, by position.
    private var badgeOverrides: [Int: Badge?] = [:]
    /// The item of the detail screen pushed onto each tab's navigation stack, by position; a tab
    /// without an entry shows its root screen.
    private var pushedItems: [Int: String] = [:]
    /// The visitor's order and hidden tabs; nil while they are the app's (see `arrangement`).
    var customArrangement: TabArrangement?
    /// The arrangement as it was when the visitor began customizing; nil when not customizing.
    var arrangementBeforeCustomizing: TabArrangement?
    /// UIKit's More navigation controller: whether it is selected, and the tab on its stack.
    var more = MoreStack()
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

    /// The state of every created child, by tab id: under keepAlive every tab added so far,
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

    /// Whether the tab at `position` shows its starting badge, which its description alone
    /// decides (`startingBadge(of:)`).
    public func showsStartingBadge(at position: Int) -> Bool {
        // Most containers changed no badge: no hashing then.
        badgeOverrides.isEmpty || badgeOverrides[position] == nil
    }

    /// The item whose detail screen is pushed in the tab's navigation stack; nil at its root.
    public func pushedItem(ofTab tabID: String) -> String? {
        // Most containers have no detail pushed: no search or hashing then.
        guard !pushedItems.isEmpty else { return nil }
        return app.index(ofTab: tabID).flatMap { pushedItems[$0] }
    }

    /// Whether the bar is hidden: the selected tab shows a pushed detail screen and its tab (or
    /// the app) sets `hidesBottomBarWhenPushed`, under UITabBarController. A navigation controller
    /// reads that property to hide its tab bar controller's bar; the seeds' bars are views of
    /// their own containers, which it never touches.
    public var hidesBar: Bool {
        guard app.policies.preset.isUIKit, let selected = selectedIndex, pushedItems[selected] != nil else {
            return false
        }
        return app.hidesBar(whenPushedOnTabAt: selected)
    }

    /// The tab a visitor entering the app lands on: the selected one, else the first shown one the
    /// guard allows (the first shown tab when every one needs a login).
    public func entryTabID(isLoggedIn: Bool) -> String {
        if let selectedTabID { return selectedTabID }
        let shown = app.tabs.indices.filter { customArrangement?.isHidden($0) != true }
        let position = shown.first { isAllowed(app.tabs[$0], isLoggedIn: isLoggedIn) } ?? shown.first ?? 0
        return app.tabs[position].id
    }

    // MARK: Storage by position

    /// The child's state at `position`, nil when it has no child.
    func childState(at position: Int) -> PageState? {
        guard children.contains(position) else { return nil }
        return changedStates[position] ?? app.tabs[position].page.initialState
    }

    /// Makes (or, with nil, drops with its navigation stack) the child at `position` with `state`.
    mutating func setChildState(_ state: PageState?, at position: Int) {
        guard let state else {
            children.remove(position)
            loadedViews.remove(position)
            changedStates[position] = nil
            pushedItems[position] = nil
            return
        }
        children.insert(position)
        changedStates[position] = state == app.tabs[position].page.initialState ? nil : state
    }

    func hasChild(at position: Int) -> Bool { children.contains(position) }

    /// Whether the child at `position` has loaded its root screen's view.
    func isViewLoaded(at position: Int) -> Bool { loadedViews.contains(position) }

    /// Loads the root screen's view of the child at `position` the first time something asks for
    /// it, logging `viewDidLoad`; nothing when it is loaded already.
    mutating func loadView(at position: Int, at time: Date) {
        guard hasChild(at: position), !loadedViews.contains(position) else { return }
        loadedViews.insert(position)
        log.append(.viewDidLoad(tabID: app.tabs[position].id), at: time)
    }

    /// Marks the view of the child at `position` loaded without logging: a stored container's.
    mutating func setViewLoaded(at position: Int) {
        if hasChild(at: position) { loadedViews.insert(position) }
    }

    func pushedItem(at position: Int) -> String? { pushedItems[position] }

    mutating func setPushedItem(_ itemID: String?, at position: Int) { pushedItems[position] = itemID }

    func visibleBadge(at position: Int) -> Badge? {
        if !badgeOverrides.isEmpty, let override = badgeOverrides[position] { return override }
        // The two fields read in place: a getter on `app.tabs[position]` copies the whole tab description.
        return TabDescription.startingBadge(
            page: app.tabs[position].page, initialBadge: app.tabs[position].initialBadge,
            binding: app.tabs[position].badgeBinding)
    }

    mutating func setVisibleBadge(_ badge: Badge?, at position: Int) {
        if badge == Self.startingBadge(of: app.tabs[position]) {
            badgeOverrides[position] = nil
        } else {
            badgeOverrides.updateValue(badge, forKey: position)
        }
    }

    /// Empties every store by position, for a new tab list.
    mutating func clearStorage(for newApp: AppDescription) {
        app = newApp
        selectedIndex = nil
        children = TabSet()
        loadedViews = TabSet()
        changedStates = [:]
        badgeOverrides = [:]
        pushedItems = [:]
        customArrangement = nil
        arrangementBeforeCustomizing = nil
        more = MoreStack()
    }

    // MARK: Selection

    /// The login guard: a login-only tab is refused to a logged-out visitor, on every entry path.
    func isAllowed(_ tab: TabDescription, isLoggedIn: Bool) -> Bool { !tab.requiresLogin || isLoggedIn }

    /// Selects a tab if the guard allows it, recording the preset's calls (docs/container.md).
    /// `layout` is the layout of the request, stamped on every event recorded.
    public mutating func select(
        _ target: SelectionTarget, source: SelectionSource, isLoggedIn: Bool, at time: Date, in layout: Layout? = nil
    ) -> SelectionOutcome {
        log.layout = layout
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
        // A tab the visitor hid has no cell and no row: on a device no tap, row or link reaches it,
        // and only the app's own code selects it (SwiftUI's `hidden(_:)`: "that tab could be selected").
        if source != .code, customArrangement?.isHidden(position) == true {
            return unchanged(.hiddenTab(tabID: app.tabs[position].id), source: source, at: time)
        }
        let viaMore = usesMore(in: layout) && isUnderMore(position)
        let source = Self.entryPath(source, viaMore: viaMore, in: layout)
        if position == selectedIndex { return reselect(position, source: source, isLoggedIn: isLoggedIn, at: time) }
        let tab = app.tabs[position]
        let previous = selectedIndex
        let allowed = isAllowed(tab, isLoggedIn: isLoggedIn)
        if source == .tap && app.policies.asksDelegateOnTap {
            log.append(shouldSelectEvent(position, source: source, allowed: allowed), at: time)
        } else {
            log.append(.guardChecked(tabID: tab.id, source: source, allowed: allowed), at: time)
        }
        guard allowed else { return .refused(tabID: tab.id, reason: .needsLogin) }
        var appearsLater: Int?
        if viaMore && source != .tap {
            showOnMore(position, at: time)
        } else if more.isSelected {
            leaveMore(for: position, at: time)
        } else {
            appearsLater = show(position, isFirstDisplay: selectedIndex == nil, at: time)
        }
        let callsDidSelect =
            switch source {
            case .tap: app.policies.asksDelegateOnTap
            case .moreRow: false
            case .url, .code, .history: app.policies.didSelectForProgrammaticSelection
            }
        if callsDidSelect { log.append(didSelectEvent(position, previous: previous, source: source), at: time) }
        if let appearsLater { appearAfterFirstDisplay(appearsLater, at: time) }
        return .selected(tabID: tab.id)
    }

    /// The selected tab chosen again. Only a tap reselects: UIKit asks `shouldSelect`, pops (under
    /// popToRoot) and calls `didSelect` whether or not the selection changed; the vertical seed's
    /// table asks `shouldSelect` for the row and its setter does nothing; seed 004's bar ignores it.
    private mutating func reselect(_ position: Int, source: SelectionSource, isLoggedIn: Bool, at time: Date)
        -> SelectionOutcome
    {
        let tab = app.tabs[position]
        guard source == .tap, !more.isSelected else {
            return unchanged(.alreadySelected(tabID: tab.id), source: source, at: time)
        }
        if app.policies.asksDelegateOnTap {
            let allowed = isAllowed(tab, isLoggedIn: isLoggedIn)
            log.append(shouldSelectEvent(position, source: source, allowed: allowed), at: time)
            guard allowed else { return .refused(tabID: tab.id, reason: .needsLogin) }
        }
        // UIKit's didSelect comes once the tap is handled, while the pop still animates: before
        // the pop's did- callbacks, which wait for the animation's end.
        let didSelect: ContainerEventKind? =
            app.policies.preset.isUIKit ? didSelectEvent(position, previous: position, source: source) : nil
        guard app.policies.reselect == .popToRoot else {
            let outcome = unchanged(.alreadySelected(tabID: tab.id), source: source, at: time)
            if let didSelect { log.append(didSelect, at: time) }
            return outcome
        }
        log.append(.poppedToRoot(tabID: tab.id), at: time)
        popSteps(at: position, whileAnimating: didSelect, at: time)
        return .poppedToRoot(tabID: tab.id)
    }

    /// The delegate's question about a tap on the tab at `position`, in the preset's vocabulary:
    /// iOS 18's `shouldSelectTab` under `uikit18`, else `shouldSelect`.
    func shouldSelectEvent(_ position: Int, source: SelectionSource, allowed: Bool) -> ContainerEventKind {
        let tabID = app.tabs[position].id
        if app.policies.preset == .uikit18 { return .shouldSelectTab(tabID: tabID, source: source, allowed: allowed) }
        return .shouldSelect(tabID: tabID, source: source, allowed: allowed)
    }

    /// The delegate told of a selection of the tab at `position`, in the preset's vocabulary:
    /// iOS 18's `didSelectTab(_:previousTab:)` under `uikit18`, else `didSelect`.
    func didSelectEvent(_ position: Int, previous: Int?, source: SelectionSource) -> ContainerEventKind {
        let tabID = app.tabs[position].id
        guard app.policies.preset == .uikit18 else { return .didSelect(tabID: tabID, source: source) }
        return .didSelectTab(tabID: tabID, previousTabID: previous.map { app.tabs[$0].id }, source: source)
    }

    /// Leaves a login-only tab after the visitor logs out: selects the first tab open to everyone
    /// (as code), one the visitor did not hide when there is one. nil when the selected tab needs no
    /// login, so nothing changed.
    public mutating func visitorLoggedOut(at time: Date, in layout: Layout? = nil) -> SelectionOutcome? {
        guard let selected = selectedTab, selected.requiresLogin else { return nil }
        let open = app.tabs.indices.filter { !app.tabs[$0].requiresLogin }
        guard let position = open.first(where: { customArrangement?.isHidden($0) != true }) ?? open.first else {
            return nil
        }
        return select(.index(position), source: .code, isLoggedIn: false, at: time, in: layout)
    }

    private mutating func unchanged(_ reason: UnchangedReason, source: SelectionSource, at time: Date)
        -> SelectionOutcome
    {
        log.append(.selectionUnchanged(source: source, reason: reason), at: time)
        return .unchanged(reason)
    }

    // MARK: Navigation stacks

    /// Pushes the detail screen of one of the page's items (a search result, news item,
    /// checklist item or setting) onto the selected tab's stack; a detail already pushed is
    /// popped first.
    public mutating func push(
        item itemID: String, onTab tabID: String, at time: Date, in layout: Layout? = nil
    ) -> NavigationOutcome {
        log.layout = layout
        guard let position = app.index(ofTab: tabID), position == selectedIndex else { return .notOnScreen }
        guard app.tabs[position].page.content.items.contains(where: { $0.id == itemID }) else {
            return .unknownItem(itemID)
        }
        if pushedItem(at: position) == itemID { return .unchanged }
        if let shown = pushedItem(at: position) {
            log.append(.popped(tabID: tabID, itemID: shown), at: time)
            popSteps(at: position, at: time)
        }
        log.append(.pushed(tabID: tabID, itemID: itemID), at: time)
        pushSteps(itemID, at: position, at: time)
        return .pushed(itemID: itemID)
    }

    /// Pops the selected tab's detail screen (Back): its root screen shows again, as it was.
    public mutating func pop(onTab tabID: String, at time: Date, in layout: Layout? = nil) -> NavigationOutcome {
        log.layout = layout
        guard let position = app.index(ofTab: tabID), position == selectedIndex else { return .notOnScreen }
        guard let shown = pushedItem(at: position) else { return .unchanged }
        log.append(.popped(tabID: tabID, itemID: shown), at: time)
        popSteps(at: position, at: time)
        return .popped(itemID: shown)
    }

    // MARK: Page actions

    /// Applies a visitor's action to a tab's page. Refused when the tab needs login and the
    /// visitor is logged out. An action from a window whose tab is no longer the selected one (a
    /// stale window) is not lost: the tab is selected first, as code, logged as `staleAction`.
    @discardableResult
    public mutating func perform(
        _ action: PageAction, onTab tabID: String, isLoggedIn: Bool, at time: Date, in layout: Layout? = nil
    ) -> PageActionOutcome {
        log.layout = layout
        guard let position = app.index(ofTab: tabID) else {
            return refuse(action, tabID, .unknownTab(tabID), at: time)
        }
        let tab = app.tabs[position]
        if !isAllowed(tab, isLoggedIn: isLoggedIn) {
            return refuse(action, tabID, .needsLogin(tabTitle: tab.title), at: time)
        }
        if selectedIndex != position {
            log.append(.staleAction(tabID: tabID, selectedTabID: selectedTabID), at: time)
            _ = select(.index(position), source: .code, isLoggedIn: isLoggedIn, at: time, in: layout)
        }
        let state = childState(at: position) ?? tab.page.initialState
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

    /// A derived badge follows its page state: the child's, or the initial state when it has
    /// none (after a detach discarded it).
    mutating func refreshDerivedBadge(at position: Int, time: Date) {
        let tab = app.tabs[position]
        guard tab.derivesBadge else { return }
        let state = childState(at: position) ?? tab.page.initialState
        setBadge(tab.derivedBadge(for: state), at: position, time: time)
    }
}

extension TabDescription {
    /// The badge a tab shows before anything happens to it.
    var startingBadge: Badge? { Self.startingBadge(page: page, initialBadge: initialBadge, binding: badgeBinding) }

    static func startingBadge(page: PageDescription, initialBadge: Badge?, binding: BadgeBinding?) -> Badge? {
        // Only a derived badge reads the initial state: another kind's (a checklist's sorts its
        // ids) would be built for nothing.
        let derived: Badge? =
            switch (binding, page.content) {
            case (.count?, .counter(let counter)): .count(counter.start)
            case (_, .news): page.derivedBadge(for: page.initialState)
            case (_, .screen) where page.hasScreenCounter: page.derivedBadge(for: page.initialState)
            default: nil
            }
        let badge = derived ?? initialBadge
        return badge?.isVisible == true ? badge : nil
    }
}

// In this file: it reaches the private parts of the state.
extension TabContainer {
    /// What a follower takes when they explore on their own: the screen that was shown and
    /// nothing else. The visible tab keeps its page state and pushed detail; every other tab
    /// starts fresh, the event log is empty (it names what the presenter did and typed), and a
    /// login-only tab is not handed over at all (the follower is not logged in: they start
    /// from the app's entry). The bar's order and badges, which were on screen, stay; a badge
    /// of a login-only tab goes. Under UIKit's preset, More's stack keeps the tab shown or none,
    /// and the children dropped are made again at the next switch (`adoptEveryMissingChild`).
    public func handedOver() -> TabContainer {
        var taken = self
        taken.log = EventLog(capacity: log.capacity, tabs: app.tabs)
        taken.arrangementBeforeCustomizing = nil
        let shown = selectedIndex.flatMap { app.tabs[$0].requiresLogin ? nil : $0 }
        taken.selectedIndex = shown
        for position in app.tabs.indices where position != shown {
            taken.children.remove(position)
            taken.loadedViews.remove(position)
            taken.changedStates[position] = nil
            taken.pushedItems[position] = nil
            if app.tabs[position].requiresLogin { taken.badgeOverrides[position] = nil }
        }
        // More's stack holds the tab shown or none: a tab pushed on it off screen, or a login-only
        // one, went with the rest, and More starts again from its list, not selected.
        if let top = more.top, top != shown { taken.more = MoreStack() }
        return taken
    }
}
