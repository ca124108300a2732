/// One item of the bottom bar.
public enum BarItem: Sendable, Equatable {
    case tab(index: Int, tabID: String, isSelected: Bool)
    /// UIKit's More item: the tabs that did not fit, in order.
    case more(tabIDs: [String], isSelected: Bool)
}

/// The bottom bar as UITabBarController lays it out: every shown tab when they fit, otherwise
/// the first `maxVisible - 1` and a More item listing the rest.
public struct BottomBarLayout: Sendable, Equatable {
    /// The positions in `app.tabs` of the tabs shown, in the visitor's order (hidden tabs left out).
    public var positions: [Int]
    /// The bar shows the first `tabsShown` of `positions`; the More list holds the others.
    public var tabsShown: Int
    /// The More item after them, nil when every tab fits.
    public var more: MoreItem?

    public init(positions: [Int], tabsShown: Int, more: MoreItem?) {
        self.positions = positions
        self.tabsShown = tabsShown
        self.more = more
    }

    /// The positions of the tabs in the bar itself.
    public var barPositions: ArraySlice<Int> { positions.prefix(tabsShown) }

    /// The positions of the tabs in the More list.
    public var morePositions: ArraySlice<Int> { positions.dropFirst(tabsShown) }

    /// UIKit's More item.
    public struct MoreItem: Sendable, Equatable {
        /// The selected tab is one of those the More list holds.
        public var isSelected: Bool

        public init(isSelected: Bool) { self.isSelected = isSelected }
    }

    /// Every one of these tabs, no More item (the vertical bar and the sidebar scroll instead).
    public static func all(_ positions: [Int]) -> BottomBarLayout {
        BottomBarLayout(positions: positions, tabsShown: positions.count, more: nil)
    }
}

extension BottomBarLayout {
    /// How many items a bottom bar shows, More included (UIKit's on an iPhone).
    public static let maximumItems = 5

    /// How many of `count` shown tabs the bar itself holds: every one when they fit, else one fewer
    /// than its items, leaving the last to More.
    static func tabsInBar(of count: Int, maxVisible: Int = maximumItems) -> Int {
        count > maxVisible ? maxVisible - 1 : count
    }
}

extension TabContainer {
    /// The bottom bar's layout for this container's tabs and selection.
    public func bottomBar(maxVisible: Int = BottomBarLayout.maximumItems) -> BottomBarLayout {
        let positions = shownPositions
        let tabsShown = BottomBarLayout.tabsInBar(of: positions.count, maxVisible: max(2, maxVisible))
        guard tabsShown < positions.count else { return .all(positions) }
        let isSelected = more.isSelected || selectedIndex.map { positions.dropFirst(tabsShown).contains($0) } ?? false
        return BottomBarLayout(positions: positions, tabsShown: tabsShown, more: .init(isSelected: isSelected))
    }

    /// The bottom bar's items (see ``bottomBar(maxVisible:)``).
    public func bottomBarItems(maxVisible: Int = BottomBarLayout.maximumItems) -> [BarItem] {
        let bar = bottomBar(maxVisible: maxVisible)
        // By position: `enumerated()` would copy every tab description just to read its id.
        var items = bar.barPositions.map { position in
            BarItem.tab(index: position, tabID: app.tabs[position].id, isSelected: position == selectedIndex)
        }
        if let more = bar.more {
            items.append(.more(tabIDs: bar.morePositions.map { app.tabs[$0].id }, isSelected: more.isSelected))
        }
        return items
    }
}
