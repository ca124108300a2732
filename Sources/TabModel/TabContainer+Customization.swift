import Foundation

/// The order a visitor sees the tabs in, and the tabs they hid: UIKit's More → Edit
/// (`customizableViewControllers`) and iOS 18's sidebar customization (`UITab.allowsHiding`,
/// SwiftUI's `TabViewCustomization`).
public struct TabArrangement: Sendable, Equatable {
    /// Every tab's position in `app.tabs` once, in the order shown (hidden ones keep their place).
    public internal(set) var order: [Int]
    var hidden = TabSet()

    init(order: [Int]) { self.order = order }

    public func isHidden(_ position: Int) -> Bool { hidden.contains(position) }
}

/// Why a customization step changed nothing.
public enum CustomizationRefusal: Error, Sendable, Equatable {
    case unknownTab(id: String)
    /// The tab is not among the app's `customizable` ones.
    case notMovable(tabID: String)
    /// The tab has no customizable neighbour in its section that way.
    case noPlaceToMove(tabID: String)
    /// The tab does not allow hiding.
    case notHideable(tabID: String)
    /// Hiding it would leave no shown tab the visitor may select.
    case lastSelectableTab(tabID: String)
}

/// The rules, in the order they are checked:
/// - Only tabs in the app's `customizable` list move, and a move swaps a tab with the nearest
///   shown customizable tab before or after it in the same section (or among the tabs in no section):
///   the tabs UIKit does not let the visitor move keep their places, and sections keep their tabs.
/// - Only tabs that allow hiding are hidden; hidden tabs leave the bars and the More list.
/// - The selection is the selected tab, wherever it moves (UIKit keeps `selectedViewController`).
///   Hiding the selected tab selects, as code, the tab now in its place in the order shown, else
///   the first shown one, skipping those the login guard refuses; with none, the tab stays shown.
/// - Reset restores the app's order with no tab hidden.
/// - Customizing begins (opening the edit list, or the first step without it) and ends (Done) with
///   the delegate calls of the preset: UIKit's `willBeginCustomizing`, then `willEndCustomizing` and
///   `didEndCustomizing` with `changed` when the items in the bar differ from when it began (moves
///   inside More leave the bar as it was); under `uikit18`, iOS 18's `tabBarControllerWillBeginEditing`,
///   `displayOrderDidChangeFor` at each move inside a section, and at the end `visibilityDidChangeFor`
///   the tabs hidden or shown, then `tabBarControllerDidEndEditing`.
extension TabContainer {
    /// The arrangement shown: the visitor's, or the app's default order with nothing hidden.
    public var arrangement: TabArrangement { customArrangement ?? TabArrangement(order: app.defaultOrder) }

    /// The positions of the tabs the bars show, in order: the arrangement without hidden tabs.
    public var shownPositions: [Int] {
        guard let customArrangement else { return app.defaultOrder }
        return customArrangement.order.filter { !customArrangement.hidden.contains($0) }
    }

    /// Whether the edit list is open.
    public var isCustomizing: Bool { arrangementBeforeCustomizing != nil }

    /// Opens the edit list: `willBeginCustomizing` with the tabs the visitor may move (under
    /// `uikit18`, `tabBarControllerWillBeginEditing`). Nothing when it is open already.
    public mutating func beginCustomizing(at time: Date, in layout: Layout? = nil) {
        guard arrangementBeforeCustomizing == nil else { return }
        log.layout = layout
        arrangementBeforeCustomizing = arrangement
        let began: ContainerEventKind =
            speaksIOS18 ? .willBeginEditing : .willBeginCustomizing(tabIDs: app.customizableTabIDs)
        log.append(began, at: time)
    }

    /// Done: the end of customizing as the rules above say, and the edit list closes. Returns
    /// whether the arrangement changed; nil when the list was not open.
    @discardableResult
    public mutating func endCustomizing(at time: Date, in layout: Layout? = nil) -> Bool? {
        guard let before = arrangementBeforeCustomizing else { return nil }
        log.layout = layout
        arrangementBeforeCustomizing = nil
        let after = arrangement
        if speaksIOS18 {
            let toggled = after.order.filter { before.isHidden($0) != after.isHidden($0) }
            if !toggled.isEmpty { log.append(.visibilityDidChange(tabIDs: toggled.map { app.tabs[$0].id }), at: time) }
            log.append(.didEndEditing, at: time)
        } else {
            let barChanged = Self.barItems(of: before) != Self.barItems(of: after)
            log.append(.willEndCustomizing(changed: barChanged), at: time)
            log.append(.didEndCustomizing(changed: barChanged), at: time)
        }
        return before != after
    }

    /// Whether the delegate is iOS 18's (`uikit18`).
    private var speaksIOS18: Bool { app.policies.preset == .uikit18 }

    /// The tabs a bottom bar holds for `arrangement`, in order (More's tabs left out).
    private static func barItems(of arrangement: TabArrangement) -> ArraySlice<Int> {
        let shown = arrangement.order.filter { !arrangement.isHidden($0) }
        return shown.prefix(BottomBarLayout.tabsInBar(of: shown.count))
    }

    /// Moves a tab one place earlier (`offset` -1) or later (+1) among the customizable tabs of
    /// its section.
    @discardableResult
    public mutating func moveTab(_ tabID: String, by offset: Int, at time: Date, in layout: Layout? = nil)
        -> CustomizationRefusal?
    {
        let move: (position: Int, slot: Int, other: Int)
        switch moveSlots(tabID, by: offset) {
        case .success(let slots): move = slots
        case .failure(let refusal): return refusal
        }
        beginCustomizing(at: time, in: layout)
        var changed = arrangement
        changed.order.swapAt(move.slot, move.other)
        customArrangement = changed
        log.append(.tabMoved(tabID: tabID, slot: move.other), at: time)
        if speaksIOS18, let section = app.sectionIndex(ofTabAt: move.position) {
            log.append(.displayOrderDidChange(sectionID: app.sections[section].id), at: time)
        }
        keepMoreStackUnderMore()
        return nil
    }

    /// Whether ``moveTab(_:by:at:in:)`` would move the tab.
    public func canMoveTab(_ tabID: String, by offset: Int) -> Bool {
        if case .success = moveSlots(tabID, by: offset) { return true }
        return false
    }

    /// The tab's slot in the order and the slot it would swap with.
    private func moveSlots(_ tabID: String, by offset: Int) -> Result<
        (position: Int, slot: Int, other: Int), CustomizationRefusal
    > {
        guard let position = app.index(ofTab: tabID) else { return .failure(.unknownTab(id: tabID)) }
        guard app.isCustomizable(at: position) else { return .failure(.notMovable(tabID: tabID)) }
        let current = arrangement
        guard let slot = current.order.firstIndex(of: position) else { return .failure(.unknownTab(id: tabID)) }
        let section = app.sectionIndex(ofTabAt: position)
        let step = offset < 0 ? -1 : 1
        var other = slot + step
        while current.order.indices.contains(other) {
            let candidate = current.order[other]
            if app.sectionIndex(ofTabAt: candidate) == section && app.isCustomizable(at: candidate)
                && !current.hidden.contains(candidate)
            {
                return .success((position, slot, other))
            }
            other += step
        }
        return .failure(.noPlaceToMove(tabID: tabID))
    }

    /// Hides a tab that allows hiding, or shows it again; hiding the selected tab moves the
    /// selection (see the rules above).
    @discardableResult
    public mutating func setTabHidden(
        _ tabID: String, _ isHidden: Bool, isLoggedIn: Bool, at time: Date, in layout: Layout? = nil
    ) -> CustomizationRefusal? {
        guard let position = app.index(ofTab: tabID) else { return .unknownTab(id: tabID) }
        guard app.tabs[position].allowsHiding else { return .notHideable(tabID: tabID) }
        var changed = arrangement
        guard changed.hidden.contains(position) != isHidden else { return nil }
        var next: Int?
        if isHidden && showsMoreList {
            // The More list stays only while tabs are left under More; else the tab in its place shows.
            var after = changed
            after.hidden.insert(position)
            let shown = after.order.filter { !after.hidden.contains($0) }
            if shown.count <= BottomBarLayout.maximumItems {
                next = shown.first { isAllowed(app.tabs[$0], isLoggedIn: isLoggedIn) }
                guard next != nil else { return .lastSelectableTab(tabID: tabID) }
            }
        } else if isHidden && position == selectedIndex {
            let shown = shownPositions
            let slot = shown.firstIndex(of: position) ?? 0
            let rest = shown.filter { $0 != position }
            let candidates = (rest.indices.contains(slot) ? [rest[slot]] : []) + rest
            next = candidates.first { isAllowed(app.tabs[$0], isLoggedIn: isLoggedIn) }
            guard next != nil else { return .lastSelectableTab(tabID: tabID) }
        } else if isHidden && shownPositions.count == 1 {
            return .lastSelectableTab(tabID: tabID)
        }
        beginCustomizing(at: time, in: layout)
        if isHidden { changed.hidden.insert(position) } else { changed.hidden.remove(position) }
        customArrangement = changed
        log.append(.tabHiddenChanged(tabID: tabID, isHidden: isHidden), at: time)
        keepMoreStackUnderMore()
        if let next { _ = select(.index(next), source: .code, isLoggedIn: isLoggedIn, at: time, in: layout) }
        return nil
    }

    /// Back to the app's order, nothing hidden.
    public mutating func resetArrangement(at time: Date, in layout: Layout? = nil) {
        beginCustomizing(at: time, in: layout)
        customArrangement = nil
        log.append(.arrangementReset, at: time)
        keepMoreStackUnderMore()
    }

}

/// An arrangement as a session stores it: tabs by id, so a stored one is checked against the tabs.
struct StoredArrangement: Codable, Equatable {
    var order: [String]
    var hidden: [String]

    init(_ arrangement: TabArrangement, of app: AppDescription) {
        order = arrangement.order.map { app.tabs[$0].id }
        hidden = arrangement.order.filter(arrangement.isHidden).map { app.tabs[$0].id }
    }

    /// The arrangement on `app`'s tabs; nil when it does not fit them: not every tab once, or a
    /// hidden tab that does not allow hiding.
    func arrangement(of app: AppDescription) -> TabArrangement? {
        let positions = order.compactMap { app.index(ofTab: $0) }
        guard positions.count == app.tabs.count, Set(positions).count == positions.count else { return nil }
        var restored = TabArrangement(order: positions)
        for tabID in hidden {
            guard let position = app.index(ofTab: tabID), app.tabs[position].allowsHiding else { return nil }
            restored.hidden.insert(position)
        }
        return restored
    }
}
