import Foundation
import HTTPServer
import Sessions
import TabModel
import Views

/// The app's screens: the entry paths, a tab, a pushed detail, the More list, and the page
/// forms. What a GET of a tab does to the container is `TabSelection`'s.
struct TabController: Sendable {
    let pages: PageRoutes

    /// After every fixed path of an app (`/{app}/events`, `/{app}/stage`, …): these patterns
    /// match any segment there.
    func addRoutes(to router: inout Router) {
        router.get("/{app}", pages.plain(.app, appEntry))
        router.get("/{app}/{layout}", pages.page(.layout, layoutEntry))
        router.get(
            "/{app}/{layout}/" + StageLinks.moreSegment,
            pages.page(.layout, visiting: .init(showsNotice: true), find: Self.moreListShown, moreList))
        router.get(
            "/{app}/{layout}/{tab}",
            pages.page(
                .layout, visiting: .init(creates: .always, showsNotice: true, readsFirst: true), find: Self.namedTab,
                tabPage))
        router.get(
            "/{app}/{layout}/{tab}/{item}",
            pages.page(.layout, visiting: .init(creates: .always, showsNotice: true), find: Self.namedItem, detailPage))
        router.post("/{app}/{layout}/{tab}/action", pages.form(.layout, badForm: .unknownAction(""), pageAction))
    }

    /// `/{app}`: on to the app's own layout (its description's `layout`), keeping `?lang=`.
    func appEntry(_ page: PageRequest) -> PageAnswer {
        var location = StageLinks.layout(page.app.id, page.app.defaultLayout)
        if let chosen = page.settings.language { location += "?lang=" + chosen }
        return .redirect(location)
    }

    /// `/{app}/{layout}`: on to what the container shows (the selected tab, or the More list), or,
    /// when nothing is shown yet, the first tab the login guard allows.
    func layoutEntry(_ visit: PageVisit, _: Void, _ session: inout VisitorSession) -> PageAnswer {
        let container = TabSelection.currentContainer(session, of: visit.app, at: visit.now).container
        var location = TabSelection.shownPath(container, isLoggedIn: session.isLoggedIn, in: visit.layout)
        if let chosen = visit.page.settings.language { location += "?lang=" + chosen }
        return .redirect(location)
    }

    /// The tab a path names, by its index in the app.
    static func namedTab(_ page: PageRequest) -> Result<Int, Refusal> {
        let tabID = page.parameter("tab")
        guard let index = page.app.tabs.firstIndex(where: { $0.id == tabID }) else {
            return .failure(.unknownTab(tabID))
        }
        return .success(index)
    }

    /// `/{app}/{layout}/{tab}`: the tab selected, as the container's rules allow, and its page.
    func tabPage(_ visit: PageVisit, _ tabIndex: Int, _ session: inout VisitorSession) -> PageAnswer {
        TabSelection(visit, tabIndex: tabIndex).visit(&session, notice: visit.notice)
    }

    /// The item a detail path names, on a tab of the app. `…/action` is the page's form
    /// endpoint, which only POST has.
    static func namedItem(_ page: PageRequest) -> Result<String, Refusal> {
        let tabID = page.parameter("tab")
        let itemID = page.parameter("item")
        guard let tab = page.app.tab(id: tabID) else { return .failure(.unknownTab(tabID)) }
        guard tab.page.content.items.contains(where: { $0.id == itemID }) else {
            if itemID == StageLinks.actionSegment { return .failure(.methodNotAllowed(allowed: "POST")) }
            return .failure(.notFound(.unknownPage))
        }
        return .success(tabID)
    }

    /// `/{app}/{layout}/{tab}/{item}`: selects the tab (as any entry path) and pushes the item's
    /// detail screen onto its stack.
    func detailPage(_ visit: PageVisit, _ tabID: String, _ session: inout VisitorSession) -> PageAnswer {
        let itemID = visit.page.parameter("item")
        let (now, layout) = (visit.now, visit.layout)
        var notice = visit.notice
        var content = StageContent.detail(tabID: tabID, itemID: itemID)
        var status = HTTPStatus.ok
        var (container, _) = TabSelection.currentContainer(session, of: visit.app, at: now)
        let outcome =
            container.selectedTabID == tabID
            ? nil
            : container.select(
                .tab(tabID), source: visit.page.entrySource(opensTheScreenShown: false), isLoggedIn: session.isLoggedIn,
                at: now, in: layout)
        switch outcome {
        case .refused(let refusedID, let reason)?:
            content = .refused(tabID: refusedID, reason: reason)
            status = .forbidden
            notice = nil
        case .unchanged(.hiddenTab)?:
            return TabSelection.notOpened(tabID, container, &session, in: layout)
        default:
            _ = container.push(item: itemID, onTab: tabID, at: now, in: layout)
        }
        session.containers[visit.app.id] = container
        return .screen(container, Screen(content: content, status: status, notice: notice))
    }

    /// The More list is the bar's: a layout without one has no such tab.
    static func moreListShown(_ page: PageRequest) -> Result<Void, Refusal> {
        page.layout?.hasMoreList == true ? .success(()) : .failure(.unknownTab(StageLinks.moreSegment))
    }

    /// `/{app}/{layout}/_more`: the bottom bar's More list. Under UIKit's preset it selects the
    /// More navigation controller (`TabContainer.selectMore`): a tap shows the top of More's stack,
    /// answered with a redirect to its tab when a row pushed one; any other entry shows the list.
    func moreList(_ visit: PageVisit, _: Void, _ session: inout VisitorSession) -> PageAnswer {
        guard session.containers[visit.app.id] != nil else {
            return .screen(TabContainer(app: visit.app), Screen(content: .more, notice: visit.notice))
        }
        let (now, layout, page) = (visit.now, visit.layout, visit.page)
        var outcome: MoreOutcome?
        let container = TabSelection.withCurrentContainer(&session, of: visit.app, at: now) { container in
            guard !page.isLiveRefresh else { return container }
            let source = page.entrySource(opensTheScreenShown: container.showsMoreList)
            outcome = container.selectMore(source: source, at: now, in: layout)
            return container
        }
        if case .tab(let tabID)? = outcome { return .redirect(StageLinks.tab(visit.app.id, layout, tabID)) }
        return .screen(container, Screen(content: .more, notice: visit.notice))
    }

    /// `POST /{app}/{layout}/{tab}/action`: a page form (docs/forms.md); back to the tab, a
    /// refusal shown there once.
    func pageAction(_ visit: PageVisit, _ form: QueryItems, _ session: inout VisitorSession) -> PageAnswer {
        let tabID = visit.page.parameter("tab")
        guard visit.app.tab(id: tabID) != nil else { return .refusal(.unknownTab(tabID)) }
        guard let action = PageActionForm.action(from: form) else {
            return .refusal(Refusal(.badRequest, .unknownAction(form.values(for: "action").last ?? "")))
        }
        let (now, layout, isLoggedIn) = (visit.now, visit.layout, session.isLoggedIn)
        let outcome = TabSelection.withCurrentContainer(&session, of: visit.app, at: now) {
            $0.perform(action, onTab: tabID, isLoggedIn: isLoggedIn, at: now, in: layout)
        }
        // A login refusal is explained by the page the redirect leads to; say nothing twice.
        if case .refused(let refusal) = outcome, !refusal.isNeedsLogin {
            session.flash = FlashMessage(
                text: UIString.pageActionRefused(refusal).localizedText(alsoIn: visit.app.languages), isError: true)
        }
        return .redirect(StageLinks.tab(visit.app.id, layout, tabID))
    }
}

extension PageActionRefusal {
    var isNeedsLogin: Bool {
        if case .needsLogin = self { return true }
        return false
    }
}
