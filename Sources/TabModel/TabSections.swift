/// A titled group of tabs: a section of the adaptive layout's sidebar (SwiftUI's `TabSection`,
/// UIKit's `UITabGroup`). In a bar the section has no cell of its own: its tabs stand in the bar
/// in order, after the tabs that are in no section (docs/adaptive.md).
public struct TabSectionDescription: Sendable, Equatable, Codable {
    /// Used in element ids: 1 to 32 characters from `a-z`, `0-9` and `-`, unique among sections.
    public var id: String
    public var title: LocalizedText
    /// The ids of its tabs, in the order the section shows them; at least one.
    public var tabIDs: [String]

    public init(id: String, title: LocalizedText, tabIDs: [String]) {
        self.id = id
        self.title = title
        self.tabIDs = tabIDs
    }
}

extension AppDescription {
    /// The order the tabs are shown in before a visitor changes it, as positions in `tabs`: the
    /// tabs in no section as `tabs` lists them, then each section's tabs as it lists them. For an
    /// app without sections, `tabs` order.
    static func defaultOrder(of tabs: [TabDescription], sections: [TabSectionDescription]) -> [Int] {
        guard !sections.isEmpty else { return Array(tabs.indices) }
        let inSections = Set(sections.flatMap(\.tabIDs))
        var order = tabs.indices.filter { !inSections.contains(tabs[$0].id) }
        for section in sections {
            order += section.tabIDs.compactMap { tabID in tabs.firstIndex { $0.id == tabID } }
        }
        return order
    }

    /// The index in `sections` of the section holding the tab at `position`; nil when it is in none.
    public func sectionIndex(ofTabAt position: Int) -> Int? {
        guard !sections.isEmpty else { return nil }
        let tabID = tabs[position].id
        return sections.firstIndex { $0.tabIDs.contains(tabID) }
    }

    /// Whether the visitor may move the tab at `position`.
    public func isCustomizable(at position: Int) -> Bool {
        !customizableTabIDs.isEmpty && customizableTabIDs.contains(tabs[position].id)
    }

    /// Whether a visitor can change anything: a tab to move or one to hide.
    public var allowsCustomization: Bool {
        !customizableTabIDs.isEmpty || tabs.contains { $0.allowsHiding }
    }
}
