import Foundation

/// The containment steps: when children are added and removed and which appearance callbacks a
/// switch produces, by preset and child retention. Each step is recorded under the UIKit call it
/// stands for; the calls UIKit makes itself are recorded too (`addChild` calls
/// `willMove(toParent:)`, `removeFromParent` calls `didMove(toParent: nil)` where the preset's
/// controller relies on that).
extension TabContainer {
    /// Shows the tab at `new` in place of the selected one. `isFirstDisplay` is the container's
    /// first selection, which both seeds make in their container's `viewDidLoad`, before its view
    /// is in a window: their first child's appearance callbacks come when the container appears,
    /// after the selection is done. Returns that child, whose appearance is still to come
    /// (``appearAfterFirstDisplay(_:at:)``); nil when every callback was recorded.
    mutating func show(_ new: Int, isFirstDisplay: Bool = false, at time: Date) -> Int? {
        let old = selectedIndex
        var pending: Int?
        switch (app.policies.childRetention, app.policies.preset) {
        case (.keepAlive, .uikit), (.keepAlive, .uikit18):
            // UITabBarController owns every child from the moment its tabs are set; the first
            // display sets them. A switch swaps views in the order observed on a device
            // (docs/container.md, "Where each order comes from"); Apple documents none.
            adoptEveryMissingChild(at: time)
            appearanceSwap(from: old, to: new, at: time)
        case (.keepAlive, .fsVertical):
            // Seed 000 keeps its view controllers in an array made with the container; its
            // `selectedIndex` setter adds the new child, reads its view and adds it, then removes
            // the old view and child. The same child comes back later, its state intact.
            if isFirstDisplay { createEveryChild(at: time) }
            pending = addAndShow(new, defersAppearance: isFirstDisplay, at: time)
            if let old { removeLikeSeed000(old, at: time) }
        case (.keepAlive, _):
            // Seed 004's five view controllers are properties of its container. `updateView`
            // calls `addChild` and reads the child's view the first time a tab is shown (so a
            // loaded view is an added child), then `addSubview`s the view on top; the old view is
            // never removed, so it gets no disappearance, and a view brought back on top never
            // left the window, so it gets no appearance either.
            if isFirstDisplay { createEveryChild(at: time) }
            if isViewLoaded(at: new) {
                record(ContainerEventKind.viewAdded, new, at: time)
            } else {
                pending = addAndShow(new, defersAppearance: isFirstDisplay, at: time)
            }
        case (.detach, .fsVertical):
            // Seed 000's setter, with each child made when shown and dropped when left.
            pending = addAndShow(new, defersAppearance: isFirstDisplay, at: time)
            if let old {
                removeLikeSeed000(old, at: time)
                discard(old, at: time)
            }
        case (.detach, _):
            // A custom container as UIKit's guide writes one: `transition(from:to:)`'s order.
            create(new, at: time)
            record(ContainerEventKind.willMoveToNoParent, old, at: time)
            record(ContainerEventKind.willMoveToParent, new, at: time)
            record(ContainerEventKind.addChild, new, at: time)
            appearanceSwap(from: old, to: new, at: time)
            record(ContainerEventKind.removeFromParent, old, at: time)
            record(ContainerEventKind.didMoveToParent, new, at: time)
            if let old { discard(old, at: time) }
        }
        selectedIndex = new
        return pending
    }

    /// Whether the child at `position` is a child of the container now (added, not removed since):
    /// under `uikit` every child; under seed 000's controller only the selected one; under seed
    /// 004's every one it has shown (it never removes one).
    func isAddedAsChild(at position: Int) -> Bool {
        guard hasChild(at: position) else { return false }
        switch (app.policies.childRetention, app.policies.preset) {
        case (.keepAlive, .uikit), (.keepAlive, .uikit18), (.detach, _): return true
        case (.keepAlive, .fsVertical): return position == selectedIndex
        case (.keepAlive, .seed004): return isViewLoaded(at: position)
        }
    }

    /// The appearance of the first child a seed showed, when its container's view appears.
    mutating func appearAfterFirstDisplay(_ position: Int, at time: Date) {
        appearance(.viewWillAppear, of: position, at: time)
        appearance(.viewDidAppear, of: position, at: time)
    }

    /// Seed 000's removal of the old child: its view leaves, then `removeFromParent` (which calls
    /// `didMove(toParent: nil)`); the seed calls no `willMove(toParent: nil)`.
    private mutating func removeLikeSeed000(_ old: Int, at time: Date) {
        appearance(.viewWillDisappear, of: old, at: time)
        record(ContainerEventKind.viewRemoved, old, at: time)
        appearance(.viewDidDisappear, of: old, at: time)
        record(ContainerEventKind.removeFromParent, old, at: time)
        record(ContainerEventKind.didMoveToNoParent, old, at: time)
    }

    /// The seeds make every child with their container.
    private mutating func createEveryChild(at time: Date) {
        for position in app.tabs.indices { create(position, at: time) }
    }

    /// UITabBarController's switch between two children it owns: the new child's `viewWillAppear`
    /// comes before the old one's `viewWillDisappear`, as device logs show (Apple documents no order).
    private mutating func appearanceSwap(from old: Int?, to new: Int, at time: Date) {
        loadView(at: new, at: time)
        appearance(.viewWillAppear, of: new, at: time)
        if let old { appearance(.viewWillDisappear, of: old, at: time) }
        record(ContainerEventKind.viewAdded, new, at: time)
        record(ContainerEventKind.viewRemoved, old, at: time)
        if let old { appearance(.viewDidDisappear, of: old, at: time) }
        appearance(.viewDidAppear, of: new, at: time)
    }

    /// An appearance callback of what the tab at `position` shows. Each tab is a navigation
    /// controller, which forwards its appearance callbacks to the top of its stack: the pushed
    /// detail screen when there is one, else the root screen (`UINavigationController` does this
    /// for UIKit; the Swift port wraps each tab in one too).
    mutating func appearance(_ step: AppearanceStep, of position: Int, at time: Date) {
        let tabID = app.tabs[position].id
        if let itemID = pushedItem(at: position) {
            log.append(.detailAppearance(tabID: tabID, itemID: itemID, step: step), at: time)
            return
        }
        let kind: ContainerEventKind =
            switch step {
            case .viewWillAppear: .viewWillAppear(tabID: tabID)
            case .viewDidAppear: .viewDidAppear(tabID: tabID)
            case .viewWillDisappear: .viewWillDisappear(tabID: tabID)
            case .viewDidDisappear: .viewDidDisappear(tabID: tabID)
            }
        log.append(kind, at: time)
    }

    /// UITabBarController's children: every tab has one from its first display on. A container
    /// handed over to a follower (`handedOver`) lacks those it dropped, made again here.
    mutating func adoptEveryMissingChild(at time: Date) {
        for position in app.tabs.indices where !hasChild(at: position) { adopt(position, at: time) }
    }

    /// `addChild` with UIKit's containment calls around it, for a tab without a child.
    mutating func adopt(_ position: Int, at time: Date) {
        create(position, at: time)
        record(ContainerEventKind.willMoveToParent, position, at: time)
        record(ContainerEventKind.addChild, position, at: time)
        record(ContainerEventKind.didMoveToParent, position, at: time)
    }

    /// Both seeds' showing of a child: it is made if it has none, added, its view read (loading
    /// it) and added on top with its appearance callbacks; neither seed calls `didMove(toParent:)`.
    /// With `defersAppearance` (a first display) the view joins a container not yet in a window:
    /// the callbacks are left to the caller, and the child is returned.
    private mutating func addAndShow(_ position: Int, defersAppearance: Bool, at time: Date) -> Int? {
        create(position, at: time)
        record(ContainerEventKind.willMoveToParent, position, at: time)
        record(ContainerEventKind.addChild, position, at: time)
        loadView(at: position, at: time)
        if defersAppearance {
            record(ContainerEventKind.viewAdded, position, at: time)
            return position
        }
        appearance(.viewWillAppear, of: position, at: time)
        record(ContainerEventKind.viewAdded, position, at: time)
        appearance(.viewDidAppear, of: position, at: time)
        return nil
    }

    private mutating func create(_ position: Int, at time: Date) {
        guard !hasChild(at: position) else { return }
        setChildState(app.tabs[position].page.initialState, at: position)
        log.append(.childCreated(tabID: app.tabs[position].id), at: time)
        refreshDerivedBadge(at: position, time: time)
    }

    /// Drops the child at `position` with its state and stack; a derived badge follows.
    private mutating func discard(_ position: Int, at time: Date) {
        setChildState(nil, at: position)
        log.append(.childDiscarded(tabID: app.tabs[position].id), at: time)
        refreshDerivedBadge(at: position, time: time)
    }

    private mutating func record(_ kind: (String) -> ContainerEventKind, _ position: Int?, at time: Date) {
        if let position { log.append(kind(app.tabs[position].id), at: time) }
    }

    // MARK: Navigation stacks

    /// UINavigationController's push: a new detail screen loads its view, then the root screen
    /// disappears under it.
    mutating func pushSteps(_ itemID: String, at position: Int, at time: Date) {
        let tabID = app.tabs[position].id
        setPushedItem(itemID, at: position)
        log.append(.detailViewDidLoad(tabID: tabID, itemID: itemID), at: time)
        record(ContainerEventKind.viewWillDisappear, position, at: time)
        log.append(.detailAppearance(tabID: tabID, itemID: itemID, step: .viewWillAppear), at: time)
        record(ContainerEventKind.viewDidDisappear, position, at: time)
        log.append(.detailAppearance(tabID: tabID, itemID: itemID, step: .viewDidAppear), at: time)
    }

    /// The pop of the tab's detail screen, if one is pushed: the root screen, as it was, appears.
    /// `whileAnimating` is recorded between the will- and did- callbacks (the animation's span);
    /// with nothing to pop, it is recorded at once.
    mutating func popSteps(at position: Int, whileAnimating midway: ContainerEventKind? = nil, at time: Date) {
        guard let itemID = pushedItem(at: position) else {
            if let midway { log.append(midway, at: time) }
            return
        }
        let tabID = app.tabs[position].id
        setPushedItem(nil, at: position)
        log.append(.detailAppearance(tabID: tabID, itemID: itemID, step: .viewWillDisappear), at: time)
        record(ContainerEventKind.viewWillAppear, position, at: time)
        if let midway { log.append(midway, at: time) }
        log.append(.detailAppearance(tabID: tabID, itemID: itemID, step: .viewDidDisappear), at: time)
        record(ContainerEventKind.viewDidAppear, position, at: time)
    }
}
