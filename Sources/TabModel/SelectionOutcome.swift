/// Which tab a selection asks for.
public enum SelectionTarget: Sendable, Equatable {
    /// A position in the bar; anything outside `0..<count` changes nothing.
    case index(Int)
    case tab(String)
}

/// Why the login guard refused a tab. Views word it (`UIString`).
public enum SelectionRefusal: Sendable, Equatable, Codable {
    /// The tab needs a logged-in visitor.
    case needsLogin
}

/// What a selection did.
public enum SelectionOutcome: Sendable, Equatable {
    case selected(tabID: String)
    /// The selected tab was tapped again under the popToRoot policy: its navigation stack is back
    /// at its root screen, which kept its state.
    case poppedToRoot(tabID: String)
    case unchanged(UnchangedReason)
    /// The guard refused `tabID`; nothing changed but the log. After login, select it again.
    case refused(tabID: String, reason: SelectionRefusal)
}

/// What a page action did.
public enum PageActionOutcome: Sendable, Equatable {
    case applied(PageState)
    case refused(PageActionRefusal)
}

/// What a push or pop on a tab's navigation stack did.
public enum NavigationOutcome: Sendable, Equatable {
    case pushed(itemID: String)
    case popped(itemID: String)
    /// The stack already showed what was asked for.
    case unchanged
    /// The tab is not the selected one: its stack is not on screen.
    case notOnScreen
    /// The tab's page has no item with this id (or no items at all).
    case unknownItem(String)
}
