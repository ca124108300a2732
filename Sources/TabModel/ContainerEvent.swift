import Foundation

/// Who asked for a selection.
public enum SelectionSource: String, Sendable, Equatable, Codable, CaseIterable {
    /// The visitor tapped a bar item.
    case tap
    /// The visitor opened a tab's URL.
    case url
    /// The app itself (a redirect after login, a route); `didSelect` follows the policy.
    case code
    /// The browser's back or forward button.
    case history
    /// A row of UIKit's More list: the More navigation controller pushes the tab, and no tab bar
    /// delegate call is made. Under a preset without a More navigation controller it is a tap.
    case moreRow

    /// How the log names it: `code` reads `programmatic`, `moreRow` reads `More row`.
    public var logName: String {
        switch self {
        case .code: "programmatic"
        case .moreRow: "More row"
        default: rawValue
        }
    }
}

/// One of a screen's appearance callbacks.
public enum AppearanceStep: String, Sendable, Equatable, Codable, CaseIterable {
    case viewWillAppear, viewDidAppear, viewWillDisappear, viewDidDisappear
}

/// Why a selection changed nothing.
public enum UnchangedReason: Sendable, Equatable, Codable, CustomStringConvertible {
    case alreadySelected(tabID: String)
    case outOfRange(index: Int, tabCount: Int)
    case unknownTab(id: String)
    /// The visitor hid the tab: it has no cell and no row, so no person's entry path reaches it.
    case hiddenTab(tabID: String)

    public var description: String {
        switch self {
        case .alreadySelected(let tabID): "\(tabID) is already selected"
        case .outOfRange(let index, let count): "index \(index) is outside 0..<\(count)"
        case .unknownTab(let id): "there is no tab '\(id)'"
        case .hiddenTab(let tabID): "\(tabID) is hidden, so only code can select it"
        }
    }
}

/// One step the container took, named after the UIKit call it stands for.
public enum ContainerEventKind: Sendable, Equatable, Codable {
    /// The delegate's `tabBarController(_:shouldSelect:)`, asked for a tap; it answers with the
    /// login guard (no, for a login-only tab and a logged-out visitor).
    case shouldSelect(tabID: String, source: SelectionSource, allowed: Bool)
    /// iOS 18's `tabBarController(_:shouldSelectTab:)`, the same question about a `UITab`.
    case shouldSelectTab(tabID: String, source: SelectionSource, allowed: Bool)
    /// The login guard on an entry path the controller asks no delegate about (a URL, back and
    /// forward, code; and taps under a preset without a delegate).
    case guardChecked(tabID: String, source: SelectionSource, allowed: Bool)
    case selectionUnchanged(source: SelectionSource, reason: UnchangedReason)
    /// A child page was made, with its initial state.
    case childCreated(tabID: String)
    /// `willMove(toParent: container)`.
    case willMoveToParent(tabID: String)
    case addChild(tabID: String)
    /// The tab's root screen loaded its view: the first time it is shown (UIKit loads a view
    /// controller's view when something first asks for it).
    case viewDidLoad(tabID: String)
    case viewWillAppear(tabID: String)
    /// The child's view joined the container's view hierarchy.
    case viewAdded(tabID: String)
    case viewDidAppear(tabID: String)
    /// `willMove(toParent: nil)`.
    case willMoveToNoParent(tabID: String)
    case viewWillDisappear(tabID: String)
    case viewRemoved(tabID: String)
    case viewDidDisappear(tabID: String)
    case removeFromParent(tabID: String)
    /// `didMove(toParent: nil)`, which `removeFromParent` makes.
    case didMoveToNoParent(tabID: String)
    /// `didMove(toParent: container)`.
    case didMoveToParent(tabID: String)
    /// The detach policy dropped the child and its page state.
    case childDiscarded(tabID: String)
    case didSelect(tabID: String, source: SelectionSource)
    /// iOS 18's `tabBarController(_:didSelectTab:previousTab:)`; nil when no tab was selected
    /// before (the first display, or the More list on screen).
    case didSelectTab(tabID: String, previousTabID: String?, source: SelectionSource)
    /// `popToRootViewController`: a reselect under the popToRoot policy; the root keeps its state.
    case poppedToRoot(tabID: String)
    /// A detail screen for an item pushed onto the tab's navigation stack.
    case pushed(tabID: String, itemID: String)
    /// The detail screen popped off the tab's navigation stack (Back).
    case popped(tabID: String, itemID: String)
    /// An appearance callback of a pushed detail screen.
    case detailAppearance(tabID: String, itemID: String, step: AppearanceStep)
    /// A pushed detail screen loaded its view (each push makes a new one).
    case detailViewDidLoad(tabID: String, itemID: String)
    /// A page action came from a window showing `tabID` while `selectedTabID` was selected: the
    /// container selects `tabID` first (logged next), then applies the action.
    case staleAction(tabID: String, selectedTabID: String?)
    /// A page action, with the refusal when it changed nothing.
    case pageAction(tabID: String, action: PageAction, refusal: PageActionRefusal?)
    /// nil when the badge became hidden.
    case badgeChanged(tabID: String, badge: Badge?)
    case tabsReplaced(tabCount: Int, selectedTabID: String?)
    /// The delegate's `tabBarController(_:willBeginCustomizing:)`: the edit list opened, with
    /// the tabs the visitor may move.
    case willBeginCustomizing(tabIDs: [String])
    /// The visitor moved a tab to `slot` in the order shown (0 is first).
    case tabMoved(tabID: String, slot: Int)
    /// The visitor hid a tab, or showed it again.
    case tabHiddenChanged(tabID: String, isHidden: Bool)
    /// The visitor reset the tabs to the app's order, none hidden.
    case arrangementReset
    /// The delegate's `tabBarController(_:didEndCustomizing:changed:)`: Done, and whether the
    /// order or the hidden tabs differ from when customizing began.
    case didEndCustomizing(changed: Bool)
    /// `tabBarController(_:willEndCustomizing:changed:)`, just before `didEndCustomizing`.
    case willEndCustomizing(changed: Bool)
    /// iOS 18's `tabBarControllerWillBeginEditing(_:)`: the sidebar's (or the edit list's) editing began.
    case willBeginEditing
    /// iOS 18's `tabBarController(_:displayOrderDidChangeFor:)`: the visitor reordered a section's tabs.
    case displayOrderDidChange(sectionID: String)
    /// iOS 18's `tabBarController(_:visibilityDidChangeFor:)`, when editing ends: the tabs whose
    /// `isHidden` the visitor changed.
    case visibilityDidChange(tabIDs: [String])
    /// iOS 18's `tabBarControllerDidEndEditing(_:)`.
    case didEndEditing
    /// `tabBarController(_:shouldSelect:)` asked about `moreNavigationController`: the More item
    /// tapped. The login guard has nothing to refuse there.
    case moreShouldSelect
    /// `tabBarController(_:didSelect:)` told of `moreNavigationController`, its list on screen.
    case moreDidSelect
    /// An appearance callback of the More list (UIKit's own screen, the root of More's stack).
    case moreListAppearance(step: AppearanceStep)
    /// The More navigation controller's view joined the tab bar controller's view.
    case moreViewAdded
    /// The More navigation controller's view left the tab bar controller's view.
    case moreViewRemoved
    /// The More navigation controller pushed a tab's view controller (a row of its list).
    case morePushed(tabID: String)
    /// The More navigation controller popped to its list.
    case morePoppedToRoot
    /// `navigationController(_:willShow:animated:)` of the More navigation controller's delegate:
    /// a tab, or its list (nil).
    case moreWillShow(tabID: String?)
    /// `navigationController(_:didShow:animated:)` of the More navigation controller's delegate.
    case moreDidShow(tabID: String?)
}

extension ContainerEventKind: CustomStringConvertible {
    public var description: String {
        switch self {
        case .shouldSelect(let tabID, let source, let allowed):
            "shouldSelect \(tabID) (\(source.logName)) → " + (allowed ? "yes" : "no (needs login)")
        case .shouldSelectTab(let tabID, let source, let allowed):
            "shouldSelectTab \(tabID) (\(source.logName)) → " + (allowed ? "yes" : "no (needs login)")
        case .guardChecked(let tabID, let source, let allowed):
            "guard \(tabID) (\(source.logName)) → " + (allowed ? "allowed" : "refused (needs login)")
        case .selectionUnchanged(let source, let reason): "selection unchanged (\(source.logName)): \(reason)"
        case .childCreated(let tabID): "child created \(tabID)"
        case .willMoveToParent(let tabID): "\(tabID) willMove(toParent: container)"
        case .addChild(let tabID): "addChild \(tabID)"
        case .viewDidLoad(let tabID): "\(tabID) viewDidLoad"
        case .viewWillAppear(let tabID): "\(tabID) viewWillAppear"
        case .viewAdded(let tabID): "\(tabID) view added"
        case .viewDidAppear(let tabID): "\(tabID) viewDidAppear"
        case .willMoveToNoParent(let tabID): "\(tabID) willMove(toParent: nil)"
        case .viewWillDisappear(let tabID): "\(tabID) viewWillDisappear"
        case .viewRemoved(let tabID): "\(tabID) view removed"
        case .viewDidDisappear(let tabID): "\(tabID) viewDidDisappear"
        case .removeFromParent(let tabID): "\(tabID) removeFromParent"
        case .didMoveToNoParent(let tabID): "\(tabID) didMove(toParent: nil)"
        case .didMoveToParent(let tabID): "\(tabID) didMove(toParent: container)"
        case .childDiscarded(let tabID): "child discarded \(tabID)"
        case .didSelect(let tabID, let source): "didSelect \(tabID) (\(source.logName))"
        case .didSelectTab(let tabID, let previous, let source):
            "didSelectTab \(tabID), previousTab \(previous ?? "nil") (\(source.logName))"
        case .poppedToRoot(let tabID): "popToRoot \(tabID)"
        case .pushed(let tabID, let itemID): "push \(tabID)/\(itemID)"
        case .popped(let tabID, let itemID): "pop \(tabID)/\(itemID)"
        case .detailAppearance(let tabID, let itemID, let step): "\(tabID)/\(itemID) \(step.rawValue)"
        case .detailViewDidLoad(let tabID, let itemID): "\(tabID)/\(itemID) viewDidLoad"
        case .staleAction(let tabID, let selected):
            "action from a window of \(tabID) (selected: \(selected ?? "none")): selecting \(tabID) first"
        case .pageAction(let tabID, let action, let refusal):
            "page action \(tabID) \(action)" + (refusal.map { " refused: \($0)" } ?? "")
        case .badgeChanged(let tabID, let badge): "badge \(tabID) = \(badge?.label ?? "hidden")"
        case .tabsReplaced(let count, let selected): "tabs replaced: \(count) tabs, selected \(selected ?? "none")"
        case .willBeginCustomizing(let tabIDs): "willBeginCustomizing [\(tabIDs.joined(separator: ", "))]"
        case .tabMoved(let tabID, let slot): "moved \(tabID) to \(slot + 1)"
        case .tabHiddenChanged(let tabID, let isHidden): (isHidden ? "hid " : "showed ") + tabID
        case .arrangementReset: "tabs reset to the app's order"
        case .didEndCustomizing(let changed): "didEndCustomizing(changed: \(changed))"
        case .willEndCustomizing(let changed): "willEndCustomizing(changed: \(changed))"
        case .willBeginEditing: "tabBarControllerWillBeginEditing"
        case .displayOrderDidChange(let sectionID): "displayOrderDidChangeFor \(sectionID)"
        case .visibilityDidChange(let tabIDs): "visibilityDidChangeFor [\(tabIDs.joined(separator: ", "))]"
        case .didEndEditing: "tabBarControllerDidEndEditing"
        case .moreShouldSelect: "shouldSelect moreNavigationController (tap) → yes"
        case .moreDidSelect: "didSelect moreNavigationController (tap)"
        case .moreListAppearance(let step): "More list \(step.rawValue)"
        case .moreViewAdded: "moreNavigationController view added"
        case .moreViewRemoved: "moreNavigationController view removed"
        case .morePushed(let tabID): "moreNavigationController push \(tabID)"
        case .morePoppedToRoot: "moreNavigationController popToRoot"
        case .moreWillShow(let tabID): "moreNavigationController willShow \(tabID ?? "More list")"
        case .moreDidShow(let tabID): "moreNavigationController didShow \(tabID ?? "More list")"
        }
    }
}

/// One entry of the container's log.
public struct ContainerEvent: Sendable, Equatable, Codable, CustomStringConvertible {
    /// Counts up from 1 for the container's whole life, even after old events are dropped.
    public var sequence: Int
    /// When it happened, as passed in by the caller.
    public var time: Date
    public var kind: ContainerEventKind
    /// The layout of the request that caused it; nil when no request did (replaced tabs).
    public var layout: Layout?

    public init(sequence: Int, time: Date, kind: ContainerEventKind, layout: Layout? = nil) {
        self.sequence = sequence
        self.time = time
        self.kind = kind
        self.layout = layout
    }

    /// `#12 addChild home`.
    public var description: String { "#\(sequence) \(kind)" }
}

/// The three kinds of event the event log can be filtered by.
public enum EventCategory: String, Sendable, Equatable, CaseIterable {
    /// What was selected and why, and how the bar is arranged: the guard, the delegate's calls,
    /// unchanged selections, replaced tabs, the edit list's moves and hides.
    case selection
    /// Children made, added, shown, hidden, removed and discarded, with their appearance
    /// callbacks (a pushed detail screen's too).
    case lifecycle
    /// What happened on a page: actions, badges, pushes and pops of its navigation stack.
    case page
}

extension ContainerEventKind {
    /// The kind of event this is, for the event log's filter.
    public var category: EventCategory {
        switch self {
        case .shouldSelect, .shouldSelectTab, .guardChecked, .selectionUnchanged, .didSelect, .didSelectTab,
            .staleAction, .tabsReplaced, .willBeginCustomizing, .tabMoved, .tabHiddenChanged, .arrangementReset,
            .didEndCustomizing, .willEndCustomizing, .willBeginEditing, .displayOrderDidChange, .visibilityDidChange,
            .didEndEditing, .moreShouldSelect, .moreDidSelect:
            .selection
        case .childCreated, .willMoveToParent, .addChild, .viewDidLoad, .viewWillAppear, .viewAdded, .viewDidAppear,
            .willMoveToNoParent, .viewWillDisappear, .viewRemoved, .viewDidDisappear, .removeFromParent,
            .didMoveToNoParent, .didMoveToParent, .childDiscarded, .detailAppearance, .detailViewDidLoad,
            .moreListAppearance, .moreViewAdded, .moreViewRemoved:
            .lifecycle
        case .poppedToRoot, .pushed, .popped, .pageAction, .badgeChanged, .morePushed, .morePoppedToRoot,
            .moreWillShow, .moreDidShow:
            .page
        }
    }
}

/// An event's kind as fields a device log can be compared with: the case's name, and the tab,
/// source and answer of its payload where the case has them.
public struct ContainerEventFields: Sendable, Equatable, Decodable {
    /// The case's name, `didSelect`.
    public var kind: String
    public var tabID: String?
    public var source: SelectionSource?
    /// The guard's or `shouldSelect`'s answer.
    public var allowed: Bool?

    public init(kind: String, tabID: String? = nil, source: SelectionSource? = nil, allowed: Bool? = nil) {
        self.kind = kind
        self.tabID = tabID
        self.source = source
        self.allowed = allowed
    }

    /// The payload's labels the fields read; other labels are skipped.
    private struct Payload: Decodable {
        var tabID: String?
        var source: SelectionSource?
        var allowed: Bool?
    }

    /// Reads the kind's Codable form, `{"didSelect": {"tabID": …, "source": …}}`, so every case,
    /// present and future, gets its fields from the enum itself and no table can drift from it.
    init(_ kind: ContainerEventKind) {
        let coded = (try? JSONEncoder().encode(kind)).flatMap {
            try? JSONDecoder().decode([String: Payload].self, from: $0)
        }
        guard let (name, payload) = coded?.first, coded?.count == 1 else {
            preconditionFailure("a ContainerEventKind encodes as one key, its case's name")
        }
        self.init(kind: name, tabID: payload.tabID, source: payload.source, allowed: payload.allowed)
    }
}

extension ContainerEventKind {
    /// The case's name and its tab, source and answer, for `events.json`.
    public var fields: ContainerEventFields { ContainerEventFields(self) }
}
