import Foundation

/// UIKit's More navigation controller, as the tab bar controller's selected view controller: its
/// list at the root of its stack, and the tab a row pushed. It keeps its stack while another tab
/// is selected.
struct MoreStack: Sendable, Equatable {
    var isSelected = false
    /// The position of the tab on the stack, above the list; nil when the list is its top.
    var top: Int?
}

/// What a selection of the More item shows.
public enum MoreOutcome: Sendable, Equatable {
    /// The More list.
    case list
    /// The tab on top of the More navigation controller's stack.
    case tab(id: String)
}

extension PolicyPreset {
    /// Whether the preset's controller has UIKit's More navigation controller. The seeds have no
    /// More: under them TabStage's More list is a stand-in whose rows are taps on their tabs.
    public var hasMoreNavigationController: Bool { isUIKit }
}

/// The rules (docs/container.md, "More"):
/// - The More item is a selection of `moreNavigationController`: the delegate is asked and told
///   of it, and the tab on screen disappears. It shows the top of More's stack: its list, or
///   the tab a row pushed (the delegate is then told of that tab). Tapped while More is
///   selected, it pops More's stack to the list.
/// - A row pushes its tab onto More's stack, and no tab bar delegate call is made: apps observe
///   it through the More navigation controller's delegate (`willShow`, `didShow`). So no
///   `shouldSelect` can refuse it; TabStage's login guard stands for the check such an app makes.
/// - A tab under More opened another way (its URL, code) is shown on More's stack, as UIKit's
///   `selectedViewController` shows one; the More list's URL shows the list.
extension TabContainer {
    /// Whether the More list is on screen.
    public var showsMoreList: Bool { more.isSelected && more.top == nil }

    /// Whether the More rules apply to a request of `layout`: UIKit's controller, a layout drawing a
    /// bottom bar, and more tabs than the bar holds.
    func usesMore(in layout: Layout?) -> Bool {
        guard let layout, layout.hasMoreList, app.policies.preset.hasMoreNavigationController else { return false }
        return bottomBar().more != nil
    }

    func isUnderMore(_ position: Int) -> Bool { bottomBar().morePositions.contains(position) }

    /// The entry path a selection takes: a row under a preset without More is a tap on its tab;
    /// in the bottom layout a tap can reach a tab under More only through its row.
    static func entryPath(_ source: SelectionSource, viaMore: Bool, in layout: Layout?) -> SelectionSource {
        switch source {
        case .moreRow where !viaMore: .tap
        case .tap where viaMore && layout == .bottom: .moreRow
        default: source
        }
    }

    /// The More item tapped (`.tap`), or the More list's URL opened (any other source): see the
    /// rules above. nil, changing nothing, where the More rules do not apply (a preset without
    /// More, a layout without a bottom bar, or tabs that all fit).
    public mutating func selectMore(source: SelectionSource, at time: Date, in layout: Layout? = nil) -> MoreOutcome? {
        guard usesMore(in: layout) else { return nil }
        log.layout = layout
        if source == .tap {
            log.append(.moreShouldSelect, at: time)
            if more.isSelected {
                log.append(.morePoppedToRoot, at: time)
                popMoreToList(whileAnimating: .moreDidSelect, at: time)
                return .list
            }
            let previous = selectedIndex
            enterMore(at: time)
            if let top = more.top {
                log.append(didSelectEvent(top, previous: previous, source: .tap), at: time)
                return .tab(id: app.tabs[top].id)
            }
            log.append(.moreDidSelect, at: time)
            return .list
        }
        if more.isSelected {
            if more.top != nil {
                log.append(.morePoppedToRoot, at: time)
                popMoreToList(whileAnimating: nil, at: time)
            }
            return .list
        }
        if let top = more.top {
            // Off screen: the pop shows nothing.
            log.append(.morePoppedToRoot, at: time)
            setPushedItem(nil, at: top)
            more.top = nil
        }
        enterMore(at: time)
        return .list
    }

    /// Shows a tab under More, as a row or code does: pushed onto More's stack (replacing the tab
    /// there), with the More navigation controller selected.
    mutating func showOnMore(_ position: Int, at time: Date) {
        let tabID = app.tabs[position].id
        adoptEveryMissingChild(at: time)
        if more.isSelected {
            log.append(.morePushed(tabID: tabID), at: time)
            loadView(at: position, at: time)
            log.append(.moreWillShow(tabID: tabID), at: time)
            moreTopAppearance(.viewWillDisappear, at: time)
            appearance(.viewWillAppear, of: position, at: time)
            moreTopAppearance(.viewDidDisappear, at: time)
            appearance(.viewDidAppear, of: position, at: time)
            log.append(.moreDidShow(tabID: tabID), at: time)
            more.top = position
            selectedIndex = position
            return
        }
        if more.top != position {
            // Off screen: More's stack changes under the tab on screen.
            log.append(.morePushed(tabID: tabID), at: time)
            more.top = position
        }
        enterMore(at: time)
    }

    /// The tab on screen (a bar tab) gives way to the More navigation controller, which shows the
    /// top of its stack; the order is the tab bar controller's switch.
    private mutating func enterMore(at time: Date) {
        let old = selectedIndex
        if let top = more.top { loadView(at: top, at: time) }
        moreTopAppearance(.viewWillAppear, at: time)
        if let old { appearance(.viewWillDisappear, of: old, at: time) }
        log.append(.moreViewAdded, at: time)
        if let old { log.append(.viewRemoved(tabID: app.tabs[old].id), at: time) }
        if let old { appearance(.viewDidDisappear, of: old, at: time) }
        moreTopAppearance(.viewDidAppear, at: time)
        more.isSelected = true
        selectedIndex = more.top
    }

    /// The More navigation controller gives way to a bar tab, in the tab bar controller's order;
    /// More keeps its stack.
    mutating func leaveMore(for new: Int, at time: Date) {
        adoptEveryMissingChild(at: time)
        loadView(at: new, at: time)
        appearance(.viewWillAppear, of: new, at: time)
        moreTopAppearance(.viewWillDisappear, at: time)
        log.append(.viewAdded(tabID: app.tabs[new].id), at: time)
        log.append(.moreViewRemoved, at: time)
        moreTopAppearance(.viewDidDisappear, at: time)
        appearance(.viewDidAppear, of: new, at: time)
        more.isSelected = false
        selectedIndex = new
    }

    /// More's stack popped to its list, on screen, with `midway` recorded while the pop animates.
    private mutating func popMoreToList(whileAnimating midway: ContainerEventKind?, at time: Date) {
        guard let top = more.top else {
            if let midway { log.append(midway, at: time) }
            return
        }
        log.append(.moreWillShow(tabID: nil), at: time)
        appearance(.viewWillDisappear, of: top, at: time)
        log.append(.moreListAppearance(step: .viewWillAppear), at: time)
        if let midway { log.append(midway, at: time) }
        appearance(.viewDidDisappear, of: top, at: time)
        log.append(.moreListAppearance(step: .viewDidAppear), at: time)
        log.append(.moreDidShow(tabID: nil), at: time)
        // The pop takes the tab's pushed detail with it: it was on More's stack too.
        setPushedItem(nil, at: top)
        more.top = nil
        selectedIndex = nil
    }

    /// An appearance callback of what the More navigation controller shows: its list, or the tab
    /// on its stack (the top of that tab's own stack).
    private mutating func moreTopAppearance(_ step: AppearanceStep, at time: Date) {
        if let top = more.top {
            appearance(step, of: top, at: time)
        } else {
            log.append(.moreListAppearance(step: step), at: time)
        }
    }

    /// After the arrangement changed: a tab no longer under More leaves More's stack (shown, it
    /// stays on screen as the bar tab it now is).
    mutating func keepMoreStackUnderMore() {
        guard let top = more.top, !isUnderMore(top) else { return }
        more.top = nil
        more.isSelected = false
    }
}
