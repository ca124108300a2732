import Foundation

extension TabContainer {
    /// Replaces the app's tabs while running, as setting `viewControllers`, for a visitor who is
    /// (or is not) logged in. Page states, stacks and badges of tabs that still exist (with the
    /// same page kind) are kept. Records `tabsReplaced`; then, for each child that is gone, its
    /// view's disappearance when it was on screen, `willMove(toParent: nil)`, `removeFromParent`
    /// and `childDiscarded`; under the UIKit preset with keepAlive, the new tabs' children are
    /// added. The selection follows UIKit's rule (the same tab by id, else the same index, else
    /// the first) skipping every tab the login guard refuses, each candidate's guard logged; a
    /// new selection is shown with the preset's steps (no `shouldSelect` or `didSelect`).
    public mutating func replaceTabs(with newApp: AppDescription, isLoggedIn: Bool, at time: Date) {
        let oldApp = app
        let oldIndex = selectedIndex
        let oldSelected = selectedTabID
        let showedMoreList = showsMoreList
        let wasDisplayed = oldSelected != nil || showedMoreList
        let (kept, gone) = survivingChildren(in: newApp)
        // A hidden badge of a kept tab has no entry, as `badges` shows: it takes the new starting badge.
        let newBadges = newApp.tabs.map { tab in
            oldApp.index(ofTab: tab.id).flatMap { visibleBadge(at: $0) } ?? Self.startingBadge(of: tab)
        }

        clearStorage(for: newApp)
        for child in kept {
            setChildState(child.state, at: child.position)
            setPushedItem(child.pushedItem, at: child.position)
            if child.isViewLoaded { setViewLoaded(at: child.position) }
        }
        for (position, badge) in newBadges.enumerated() { setVisibleBadge(badge, at: position) }
        log.retarget(to: newApp.tabs)
        log.layout = nil

        let selection =
            wasDisplayed
            ? Self.selectionAfterReplacement(
                in: newApp, oldSelected: oldSelected, oldIndex: oldIndex,
                isAllowed: { isAllowed($0, isLoggedIn: isLoggedIn) })
            : ReplacementSelection()
        let next = selection.next
        log.append(.tabsReplaced(tabCount: newApp.tabs.count, selectedTabID: next.map { newApp.tabs[$0].id }), at: time)
        // Setting the tabs rebuilds the More navigation controller: its list leaves the screen.
        if showedMoreList {
            log.append(.moreListAppearance(step: .viewWillDisappear), at: time)
            log.append(.moreViewRemoved, at: time)
            log.append(.moreListAppearance(step: .viewDidDisappear), at: time)
        }
        for child in gone { recordDiscarded(oldApp.tabs[child.position].id, child, at: time) }
        if wasDisplayed && app.policies.childRetention == .keepAlive && app.policies.preset.isUIKit {
            for position in newApp.tabs.indices where !hasChild(at: position) { adopt(position, at: time) }
        }
        for candidate in selection.checked {
            let allowed = candidate == next
            log.append(.guardChecked(tabID: newApp.tabs[candidate].id, source: .code, allowed: allowed), at: time)
        }
        // The old selection, when it is still a tab, is what the new one replaces on screen.
        selectedIndex = oldSelected.flatMap { newApp.index(ofTab: $0) }
        if let next {
            if next == selectedIndex {
                if !hasChild(at: next) { adopt(next, at: time) }
            } else {
                _ = show(next, at: time)
            }
        } else {
            selectedIndex = nil
        }
    }

    /// The children that survive in `newApp` (the same tab id with the same page kind, at its
    /// new position, keeping a pushed item that still exists), and the old positions of the rest.
    private func survivingChildren(in newApp: AppDescription) -> (kept: [KeptChild], gone: [GoneChild]) {
        var kept: [KeptChild] = []
        var gone: [GoneChild] = []
        for position in app.tabs.indices {
            guard let state = childState(at: position) else { continue }
            if let new = newApp.index(ofTab: app.tabs[position].id), newApp.tabs[new].page.kind == state.kind {
                let items = newApp.tabs[new].page.content.items
                let item = pushedItem(at: position).flatMap { id in items.contains { $0.id == id } ? id : nil }
                kept.append(
                    KeptChild(position: new, state: state, pushedItem: item, isViewLoaded: isViewLoaded(at: position)))
            } else {
                gone.append(
                    GoneChild(
                        position: position, isAdded: isAddedAsChild(at: position), wasShown: position == selectedIndex,
                        pushedItem: pushedItem(at: position)))
            }
        }
        return (kept, gone)
    }

    /// UIKit's rule for the selection after a replacement: the same tab by id, else the same
    /// index, else the first, skipping every tab the guard refuses.
    private static func selectionAfterReplacement(
        in newApp: AppDescription, oldSelected: String?, oldIndex: Int?, isAllowed: (TabDescription) -> Bool
    ) -> ReplacementSelection {
        var candidates: [Int] = []
        if let oldSelected, let same = newApp.index(ofTab: oldSelected) { candidates.append(same) }
        if let oldIndex, newApp.tabs.indices.contains(oldIndex) { candidates.append(oldIndex) }
        candidates += newApp.tabs.indices
        var seen = TabSet()
        var selection = ReplacementSelection()
        for candidate in candidates where !seen.contains(candidate) {
            seen.insert(candidate)
            selection.checked.append(candidate)
            if isAllowed(newApp.tabs[candidate]) {
                selection.next = candidate
                break
            }
        }
        return selection
    }

    /// A child whose tab is gone, removed as Apple's guide removes a child: `willMove(toParent: nil)`,
    /// its view's removal (with the disappearance of what it showed, when it was on screen), then
    /// `removeFromParent`, which calls `didMove(toParent: nil)`. A child never added is only dropped.
    private mutating func recordDiscarded(_ tabID: String, _ child: GoneChild, at time: Date) {
        func disappearance(_ step: AppearanceStep) -> ContainerEventKind {
            if let itemID = child.pushedItem { return .detailAppearance(tabID: tabID, itemID: itemID, step: step) }
            return step == .viewWillDisappear ? .viewWillDisappear(tabID: tabID) : .viewDidDisappear(tabID: tabID)
        }
        if child.isAdded { log.append(.willMoveToNoParent(tabID: tabID), at: time) }
        if child.wasShown {
            log.append(disappearance(.viewWillDisappear), at: time)
            log.append(.viewRemoved(tabID: tabID), at: time)
            log.append(disappearance(.viewDidDisappear), at: time)
        }
        if child.isAdded {
            log.append(.removeFromParent(tabID: tabID), at: time)
            log.append(.didMoveToNoParent(tabID: tabID), at: time)
        }
        log.append(.childDiscarded(tabID: tabID), at: time)
    }
}

/// The selection a replacement makes: the tabs whose guard it asked, in order, and the one it
/// selects (nil when every guard refused, or nothing was displayed).
private struct ReplacementSelection {
    var checked: [Int] = []
    var next: Int?
}

/// A child whose tab a replacement removed, at its old position.
private struct GoneChild {
    var position: Int
    /// It was a child of the container (see `isAddedAsChild(at:)`).
    var isAdded: Bool
    var wasShown: Bool
    /// The detail its stack showed, whose callbacks its disappearance reaches.
    var pushedItem: String?
}

/// A child that outlives a replacement of the tabs, at its new position.
private struct KeptChild {
    var position: Int
    var state: PageState
    var pushedItem: String?
    var isViewLoaded: Bool
}
