/// One item of the bottom bar.
public enum BarItem: Sendable, Equatable {
    case tab(index: Int, tabID: String, isSelected: Bool)
    /// UIKit's More item: the tabs that did not fit, in order.
    case more(tabIDs: [String], isSelected: Bool)
}

/// The bottom bar as UITabBarController lays it out, in numbers: every tab when they fit,
/// otherwise the first `maxVisible - 1` tabs and a More item listing the rest.
public struct BottomBarLayout: Sendable, Equatable {
    /// The bar shows the first `tabsShown` tabs.
    public var tabsShown: Int
    /// The More item after them, nil when every tab fits.
    public var more: MoreItem?

    public init(tabsShown: Int, more: MoreItem?) {
        self.tabsShown = tabsShown
        self.more = more
    }

    /// UIKit's More item.
    public struct MoreItem: Sendable, Equatable {
        /// The selected tab is one of those the More list holds.
        public var isSelected: Bool

        public init(isSelected: Bool) { self.isSelected = isSelected }
    }

    /// Every one of `count` tabs, no More item (the vertical bar scrolls instead).
    public static func all(_ count: Int) -> BottomBarLayout { BottomBarLayout(tabsShown: count, more: nil) }
}

extension TabContainer {
    /// The bottom bar's layout for this container's tabs and selection.
    public func bottomBar(maxVisible: Int = 5) -> BottomBarLayout {
        let visible = max(2, maxVisible)
        guard app.tabs.count > visible else { return .all(app.tabs.count) }
        let isSelected = selectedIndex.map { $0 >= visible - 1 } ?? false
        return BottomBarLayout(tabsShown: visible - 1, more: .init(isSelected: isSelected))
    }

    /// The bottom bar's items (see ``bottomBar(maxVisible:)``).
    public func bottomBarItems(maxVisible: Int = 5) -> [BarItem] {
        let bar = bottomBar(maxVisible: maxVisible)
        // By index: `enumerated()` would copy every tab description just to read its id.
        var items = (0..<bar.tabsShown).map { index in
            BarItem.tab(index: index, tabID: app.tabs[index].id, isSelected: index == selectedIndex)
        }
        if let more = bar.more {
            items.append(.more(tabIDs: app.tabs[bar.tabsShown...].map(\.id), isSelected: more.isSelected))
        }
        return items
    }
}
