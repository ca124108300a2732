import Foundation
import HTTPServer
import Sessions
import TabModel
import Views

/// A GET of a tab, read from the request before the session is touched, and the one place
/// where the rules of such a visit live (`visit`).
struct TabSelection {
    let app: AppDescription
    let layout: Layout
    let tabID: String
    let page: PageRequest
    let isSearch: Bool
    /// `?q=` on a search tab (empty for back and forward without it); nil on other tabs.
    let query: String?
    let now: Date

    init(_ visit: PageVisit, tabIndex: Int) {
        page = visit.page
        app = visit.app
        layout = visit.layout
        tabID = app.tabs[tabIndex].id
        isSearch = app.tabs[tabIndex].page.kind == .search
        // The URL says the search: back and forward to a search tab's URL without `?q=` empty it.
        query = isSearch ? page.query["q"] ?? (page.selectionSource == .history ? "" : nil) : nil
        now = visit.now
    }

    /// The visit's entry path (`PageRequest.entrySource`). A bar link never carries `?q=`: a tap
    /// that does is the redirect of one to its search (below), or the search form, not a tap.
    func source(opensTheScreenShown: Bool) -> SelectionSource {
        let entry = page.entrySource(opensTheScreenShown: opensTheScreenShown)
        return entry == .tap && page.query["q"] != nil ? .url : entry
    }

    /// Selects the tab (and sets its search) under the container's rules, and says what to show.
    ///
    /// The selected tab opened again by URL is a reload (or the page a form post redirects
    /// to), not a reselection: only a tap on the bar reselects. A reload changes nothing, so
    /// it is answered from a read of the session (`PageRoutes.Visiting.readsFirst`). The
    /// container is looked up once, and put back only when made or changed: a write copies the
    /// session's dictionary when the store shares it.
    func visit(_ session: inout VisitorSession, notice given: Notice?) -> PageAnswer {
        let isLoggedIn = session.isLoggedIn
        var notice = given
        // The presenter's followers see the layout the presenter last showed.
        if let presentation = session.presentation, presentation.appID == app.id, presentation.layout != layout {
            session.presentation?.layout = layout
        }
        var (container, isChanged) = Self.currentContainer(session, of: app, at: now)
        let source = source(opensTheScreenShown: container.selectedTabID == tabID)
        var outcome: SelectionOutcome?
        if source == .tap || container.selectedTabID != tabID {
            outcome = container.select(.tab(tabID), source: source, isLoggedIn: isLoggedIn, at: now, in: layout)
            isChanged = true
        }
        if case .unchanged(.hiddenTab)? = outcome {
            return Self.notOpened(tabID, container, &session, in: layout)
        }
        var content = StageContent.tab(id: tabID)
        var status = HTTPStatus.ok
        var redirect: String?
        if case .refused(let refusedID, let reason) = outcome {
            content = .refused(tabID: refusedID, reason: reason)
            status = .forbidden
            notice = nil
        } else if let pushed = container.pushedItem(ofTab: tabID) {
            // A tap (or a More row) shows the top of the tab's stack (its detail screen, answered
            // by a redirect there); any other entry by the tab's own URL is Back to its root.
            if source == .tap || source == .moreRow {
                redirect = StageLinks.detail(app.id, layout, tabID, pushed)
            } else {
                _ = container.pop(onTab: tabID, at: now, in: layout)
                isChanged = true
            }
        }
        if case .tab = content, redirect == nil, let query, container.pageState(ofTab: tabID) != .search(query: query) {
            let result = container.perform(.setQuery(query), onTab: tabID, isLoggedIn: isLoggedIn, at: now, in: layout)
            isChanged = true
            if case .refused(let refusal) = result {
                notice = Notice(
                    text: UIString.pageActionRefused(refusal).localizedText(alsoIn: app.languages), isError: true)
            }
        } else if case .tab = content, redirect == nil, isSearch, source == .tap, query == nil,
            case .search(let kept)? = container.pageState(ofTab: tabID), !kept.isEmpty
        {
            // A tap onto a search tab keeps its search; the URL it lands on says it.
            redirect = StageLinks.search(app.id, layout, tabID, query: kept)
        }
        if isChanged { session.containers[app.id] = container }
        if let redirect { return .redirect(redirect) }
        return .screen(consume container, Screen(content: content, status: status, notice: notice))
    }

    /// A tab the visitor hid, asked for by its URL (or a stale window's cell): a device has no way to
    /// it, so the screen shown stays, answered by a redirect there with a notice saying why.
    static func notOpened(
        _ tabID: String, _ container: TabContainer, _ session: inout VisitorSession, in layout: Layout
    ) -> PageAnswer {
        let title = container.app.tab(id: tabID)?.title ?? LocalizedText(en: tabID, zhHant: tabID)
        session.flash = FlashMessage(
            text: UIString.hiddenTabNotOpened(title).localizedText(alsoIn: container.app.languages), isError: true)
        let path = shownPath(container, isLoggedIn: session.isLoggedIn, in: layout)
        session.containers[container.app.id] = container
        return .redirect(path)
    }

    /// The path of what `container` shows in `layout`: the More list while it is on screen (in a
    /// layout with one), else the selected tab, else the tab a visitor enters on.
    static func shownPath(_ container: TabContainer, isLoggedIn: Bool, in layout: Layout) -> String {
        if container.showsMoreList && layout.hasMoreList { return StageLinks.more(container.app.id, layout) }
        return StageLinks.tab(container.app.id, layout, container.entryTabID(isLoggedIn: isLoggedIn))
    }

    // MARK: The visitor's container

    /// The visitor's container of `app`, on the served version of the app: made from it when the
    /// visitor has none, or the stored one moved onto it by UIKit's replacement rules when the
    /// app was replaced since it was stored (`tabsReplaced` in its log). `isChanged` says the
    /// session must keep the result. The one place a visitor's container follows a replaced app.
    static func currentContainer(_ session: VisitorSession, of app: AppDescription, at time: Date) -> (
        container: TabContainer, isChanged: Bool
    ) {
        guard var container = session.containers[app.id] else { return (TabContainer(app: app), true) }
        // The same storage when the app was not replaced, so this is quick.
        if container.app == app { return (container, false) }
        container.replaceTabs(with: app, isLoggedIn: session.isLoggedIn, at: time)
        return (container, true)
    }

    /// `currentContainer` kept in the session, then `body` run on it.
    static func withCurrentContainer<Result>(
        _ session: inout VisitorSession, of app: AppDescription, at time: Date, _ body: (inout TabContainer) -> Result
    ) -> Result {
        var (container, _) = currentContainer(session, of: app, at: time)
        let result = body(&container)
        session.containers[app.id] = container
        return result
    }
}
