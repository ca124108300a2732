import Sessions
import TabModel
import Views

/// What a presenter's window shows, kept in their presentation so that followers see the same
/// screen: the More list, the edit list, a pushed detail and the log-in sheet included.
enum PresentedScreens {
    /// Notes the screen a presenter's own visit drew (not a live re-read: another window of
    /// theirs catching up shows nothing new), and the layout it was drawn in.
    static func record(_ answer: consuming PageAnswer, _ page: PageRequest, in session: inout VisitorSession)
        -> PageAnswer
    {
        // Most visitors present nothing: their answer is handed on as it is, not taken apart.
        guard session.presentation != nil, !page.isLiveRefresh else { return answer }
        switch consume answer {
        case .screen(let container, let screen):
            if case .visitor = screen.audience { record(screen.content, page, in: &session) }
            return .screen(container, screen)
        case let other:
            return other
        }
    }

    private static func record(_ content: StageContent, _ page: PageRequest, in session: inout VisitorSession) {
        guard !page.isLiveRefresh, let presentation = session.presentation, presentation.appID == page.app.id
        else { return }
        let shown = presented(content)
        if presentation.shown != shown { session.presentation?.shown = shown }
        if let layout = page.layout, presentation.layout != layout { session.presentation?.layout = layout }
    }

    static func presented(_ content: StageContent) -> PresentedScreen {
        switch content {
        case .tab(let id): .tab(id: id)
        case .refused(let tabID, _): .refused(tabID: tabID)
        case .more: .more
        case .editTabs: .editTabs
        case .detail(let tabID, let itemID): .detail(tabID: tabID, itemID: itemID)
        }
    }

    /// The follower's screen: the one the presenter shows, where it still fits the app and the
    /// presenter's container (an app file replaced meanwhile), else the selected tab.
    static func content(
        _ shown: PresentedScreen?, app: AppDescription, layout: Layout, container: TabContainer, isLoggedIn: Bool
    ) -> StageContent {
        let selected = StageContent.tab(id: container.selectedTabID ?? app.tabs[0].id)
        switch shown {
        case .none:
            return selected
        case .tab(let id):
            return app.tab(id: id) != nil && container.selectedTabID == id ? .tab(id: id) : selected
        case .refused(let tabID):
            guard let tab = app.tab(id: tabID), tab.requiresLogin, !isLoggedIn else { return selected }
            return .refused(tabID: tabID, reason: .needsLogin)
        case .more:
            return layout.hasMoreList ? .more : selected
        case .editTabs:
            return layout.hasMoreList ? .editTabs : selected
        case .detail(let tabID, let itemID):
            guard container.selectedTabID == tabID,
                app.tab(id: tabID)?.page.content.items.contains(where: { $0.id == itemID }) == true
            else { return selected }
            return .detail(tabID: tabID, itemID: itemID)
        }
    }
}
