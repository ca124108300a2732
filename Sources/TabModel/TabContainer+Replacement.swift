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
        let wasDisplayed = oldSelected != nil
        var kept: [KeptChild] = []
        var gone: [Int] = []
        for position in oldApp.tabs.indices {
            guard let state = childState(at: position) else { continue }
            if let new = newApp.index(ofTab: oldApp.tabs[position].id), newApp.tabs[new].page.kind == state.kind {
                let items = newApp.tabs[new].page.content.items
                let item = pushedItem(at: position).flatMap { id in items.contains { $0.id == id } ? id : nil }
                kept.append(KeptChild(position: new, state: state, pushedItem: item))
            } else {
                gone.append(position)
            }
        }
        // A hidden badge of a kept tab has no entry, as `badges` shows: it takes the new starting badge.
        let newBadges = newApp.tabs.map { tab in
            oldApp.index(ofTab: tab.id).flatMap { visibleBadge(at: $0) } ?? Self.startingBadge(of: tab)
        }

        clearStorage(for: newApp)
        for child in kept {
            setChildState(child.state, at: child.position)
            setPushedItem(child.pushedItem, at: child.position)
        }
        for (position, badge) in newBadges.enumerated() { setVisibleBadge(badge, at: position) }
        log.retarget(to: newApp.tabs)
        log.layout = nil

        var candidates: [Int] = []
        if let oldSelected, let same = newApp.index(ofTab: oldSelected) { candidates.append(same) }
        if let oldIndex, newApp.tabs.indices.contains(oldIndex) { candidates.append(oldIndex) }
        candidates += newApp.tabs.indices
        var checked = TabSet()
        var verdicts: [Int] = []
        var next: Int?
        if wasDisplayed {
            for candidate in candidates where !checked.contains(candidate) {
                checked.insert(candidate)
                verdicts.append(candidate)
                if isAllowed(newApp.tabs[candidate], isLoggedIn: isLoggedIn) {
                    next = candidate
                    break
                }
            }
        }
        log.append(.tabsReplaced(tabCount: newApp.tabs.count, selectedTabID: next.map { newApp.tabs[$0].id }), at: time)

        for position in gone {
            let tabID = oldApp.tabs[position].id
            if position == oldIndex {
                log.append(.viewWillDisappear(tabID: tabID), at: time)
                log.append(.viewRemoved(tabID: tabID), at: time)
                log.append(.viewDidDisappear(tabID: tabID), at: time)
            }
            log.append(.willMoveToNoParent(tabID: tabID), at: time)
            log.append(.removeFromParent(tabID: tabID), at: time)
            log.append(.childDiscarded(tabID: tabID), at: time)
        }
        if wasDisplayed && app.policies.childRetention == .keepAlive && app.policies.preset == .uikit {
            for position in newApp.tabs.indices where !hasChild(at: position) { adopt(position, at: time) }
        }
        for candidate in verdicts {
            let allowed = candidate == next
            log.append(.guardChecked(tabID: newApp.tabs[candidate].id, source: .code, allowed: allowed), at: time)
        }
        // The old selection, when it is still a tab, is what the new one replaces on screen.
        selectedIndex = oldSelected.flatMap { newApp.index(ofTab: $0) }
        if let next {
            if next == selectedIndex {
                if !hasChild(at: next) { adopt(next, at: time) }
            } else {
                show(next, at: time)
            }
        } else {
            selectedIndex = nil
        }
    }
}

/// A child that outlives a replacement of the tabs, at its new position.
private struct KeptChild {
    var position: Int
    var state: PageState
    var pushedItem: String?
}
