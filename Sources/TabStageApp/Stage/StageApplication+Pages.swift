import Foundation
import HTTPServer
import Sessions
import TabModel
import Views

extension StageApplication {
    func home(_ request: Request) throws -> Response {
        let header = try chrome(request)
        var response = StageResponses.page(HomePage.document(apps: apps, files: appFiles, chrome: header.result))
        attachCookie(header.newSession, to: &response)
        return response
    }

    /// What the event log pages show: the header strip and the app's log, if the visitor has one.
    struct EventLogVisit {
        var chrome: ChromeContext
        var log: EventLog?
    }

    func eventLog(_ request: Request, _ parameters: Parameters, json: Bool) throws -> Response {
        let appID = try parameters.require("app")
        guard let app = app(id: appID) else { return try errorPage(request, .notFound, .unknownApp(appID)) }
        var category: EventCategory?
        if let kind = request.query["kind"], !json {
            guard let named = EventCategory(rawValue: kind) else { return try errorPage(request, .badRequest, nil) }
            category = named
        }
        let now = clock()
        let visit = try withVisitor(request, create: changesSettings(request)) { session in
            EventLogVisit(
                chrome: ChromeContext(
                    language: language(request, &session), app: app, visitorName: session.visitorName,
                    currentPath: StageLinks.events(app.id), csrfToken: session.csrfToken,
                    display: display(request, &session)),
                log: session.containers[app.id] == nil
                    ? nil : withCurrentContainer(&session, of: app, at: now) { $0.log })
        }
        var response: Response
        if json {
            response = .json(EventLogPage.json(app: app, log: visit.result.log))
            StageResponses.secure(&response)
            response.headers["Cache-Control"] = "no-store"
        } else {
            response = StageResponses.page(
                EventLogPage.document(
                    app: app, log: visit.result.log, category: category, chrome: visit.result.chrome))
        }
        attachCookie(visit.newSession, to: &response)
        return response
    }

    /// `GET /{app}/reset`: the confirmation step before the demo of this app is reset.
    func resetDemoConfirmation(_ request: Request, _ parameters: Parameters) throws -> Response {
        let appID = try parameters.require("app")
        guard let app = app(id: appID) else { return try errorPage(request, .notFound, .unknownApp(appID)) }
        // A session now, so that the form carries its CSRF token.
        let visit = try withVisitor(request, create: true) { session in
            ChromeContext(
                language: language(request, &session), app: app, visitorName: session.visitorName,
                currentPath: StageLinks.resetDemo(app.id), csrfToken: session.csrfToken,
                display: display(request, &session))
        }
        var response = StageResponses.page(EventLogPage.resetConfirmation(app: app, chrome: visit.result))
        attachCookie(visit.newSession, to: &response)
        return response
    }

    /// `POST /{app}/reset`: the visitor's container of this app is dropped with its page states,
    /// stacks, badges and log; the next page of the app starts it afresh. The visitor's log-in,
    /// language, appearance and other apps stay.
    func resetDemo(_ request: Request, _ parameters: Parameters) throws -> Response {
        let appID = try parameters.require("app")
        guard let app = app(id: appID) else { return try errorPage(request, .notFound, .unknownApp(appID)) }
        _ = try checkedPost(request, app: app)
        let visit = try withVisitor(request, create: false) { session in
            session.containers[app.id] = nil
        }
        var response = StageResponses.redirect(to: StageLinks.events(app.id))
        attachCookie(visit.newSession, to: &response)
        return response
    }

    /// `/{app}`: on to the app's own layout (its description's `layout`), keeping `?lang=`.
    func appEntry(_ request: Request, _ parameters: Parameters) throws -> Response {
        let appID = try parameters.require("app")
        guard let app = app(id: appID) else { return try errorPage(request, .notFound, .unknownApp(appID)) }
        var location = "/" + appID + "/" + app.defaultLayout.rawValue
        if let chosen = request.query["lang"].flatMap({ UILanguage(tag: $0) }) { location += "?lang=" + chosen.tag }
        return StageResponses.redirect(to: location)
    }

    /// `/{app}/{layout}`: on to the selected tab, or, when none is selected yet, the first tab
    /// the login guard allows.
    func layoutEntry(_ request: Request, _ parameters: Parameters) throws -> Response {
        let located = try locate(request, parameters)
        let app = located.served.apps[located.appIndex]
        let now = clock()
        let entry = try withVisitor(request, create: false) { session in
            currentContainer(session, of: app, at: now).container.entryTabID(isLoggedIn: session.isLoggedIn)
        }
        var location = StageLinks.tab(app.id, located.layout, entry.result)
        if let chosen = chosenLanguage(request) { location += "?lang=" + chosen.tag }
        return StageResponses.redirect(to: location)
    }

    /// Which entry path a GET of a tab is: the script marks bar clicks and back/forward; a
    /// typed, shared or reloaded URL (and any request without the script) is `.url`.
    func selectionSource(_ request: Request) -> SelectionSource {
        switch request.headers[StageResponses.sourceHeader] {
        case "tap": .tap
        case "history": .history
        default: .url
        }
    }

    /// `/{app}/{layout}/{tab}`: the tab selected, as the container's rules allow, and its page.
    ///
    /// Reads the app in place (`apps[appIndex]` of the request's snapshot, see `locate`): on
    /// this path nothing copies `AppDescription`; the contexts take only what they keep.
    func tabPage(_ request: Request, _ parameters: Parameters) throws -> Response {
        let located = try locate(request, parameters)
        let apps = located.served.apps
        let tabID = try parameters.require("tab")
        if tabID == StageLinks.moreSegment && located.layout.hasMoreList {
            return try morePage(request, located.served, located.appIndex, layout: located.layout)
        }
        guard let tabIndex = apps[located.appIndex].tabs.firstIndex(where: { $0.id == tabID }) else {
            return try unknownTabPage(request, tabID, app: apps[located.appIndex])
        }
        let isSearch = apps[located.appIndex].tabs[tabIndex].page.kind == .search
        // A bar link never carries `?q=`: a tap that does is the redirect of one to its search
        // (below), not a second tap.
        let requested = request.query["q"]
        let entry = selectionSource(request)
        let source = entry == .tap && requested != nil ? .url : entry
        // The URL says the search: back and forward to a search tab's URL without `?q=` empty it.
        let query = isSearch ? requested ?? (source == .history ? "" : nil) : nil
        let selection = TabSelection(
            served: located.served, appIndex: located.appIndex, appID: apps[located.appIndex].id,
            layout: located.layout, tabID: tabID, path: request.path, source: source, isSearch: isSearch, query: query,
            changesSettings: changesSettings(request), isLiveRefresh: isLiveRefresh(request), now: clock())
        let visit = try withVisitor(
            request, create: true, ifUnchanged: { session in reloadedTab(request, session, selection) },
            { session in selectTab(request, &session, selection) })
        let newSession = visit.newSession
        var response: Response
        // Moved out, not copied: the context holds the container.
        switch (consume visit).result {
        case .redirect(let location): response = StageResponses.redirect(to: location)
        case .page(let context, let status): response = render(context, status: status, request: request)
        }
        attachCookie(newSession, to: &response)
        return response
    }

    /// What a GET of a tab asks for, read from the request before the session is touched.
    struct TabSelection {
        /// The apps as this request reads them.
        var served: ServedApps
        var appIndex: Int
        var appID: String
        var layout: Layout
        var tabID: String
        /// The tab's own URL, `StageLinks.tab(appID, layout, tabID)`: the path this route matched
        /// is those three decoded segments joined by `/`, so it is used as it came.
        var path: String
        var source: SelectionSource
        var isSearch: Bool
        /// `?q=` on a search tab (empty for back and forward without it); nil on other tabs.
        var query: String?
        /// `?lang=`, `?appearance=` or `?frame=` asks for a setting the session keeps.
        var changesSettings: Bool
        /// A live page re-reading its state (see `isLiveRefresh`).
        var isLiveRefresh: Bool
        var now: Date

        var app: AppDescription { served.apps[appIndex] }

        /// Whether the visit moves the presenter's followers to this layout (they see the layout
        /// the presenter last showed).
        func movesPresentation(_ session: VisitorSession) -> Bool {
            guard let presentation = session.presentation else { return false }
            return presentation.appID == appID && presentation.layout != layout
        }

        /// Whether the request's search differs from the one the tab shows.
        func changesQuery(_ container: TabContainer) -> Bool {
            guard let query else { return false }
            return container.pageState(ofTab: tabID) != .search(query: query)
        }
    }

    /// What a tab page takes out of the visitor's session: the page's context, built under the
    /// store's lock (the session's container is copied once, into it), or where the page is
    /// instead (the top of the tab's stack, or its search in the URL).
    enum TabVisit {
        case page(StageContext, status: HTTPStatus)
        case redirect(String)
    }

    /// A reload of the tab on screen, with no message to show and no language or search to keep,
    /// reads the session and writes nothing; nil for any other visit. The selected tab opened
    /// again by URL is a reload (or the page a form post redirects to), not a reselection: only
    /// a tap on the bar reselects.
    func reloadedTab(_ request: Request, _ session: VisitorSession, _ selection: TabSelection) -> TabVisit? {
        guard session.flash == nil || selection.isLiveRefresh, !selection.changesSettings, selection.source != .tap,
            let container = session.containers[selection.appID], container.selectedTabID == selection.tabID,
            !selection.changesQuery(container), container.pushedItem(ofTab: selection.tabID) == nil,
            Self.isCurrent(container, for: selection.app), !selection.movesPresentation(session)
        else { return nil }
        let page = TabPage(
            language: keptLanguage(request, session), display: keptDisplay(request, session),
            revision: session.revision ?? 0, content: .tab(id: selection.tabID), notice: nil)
        return .page(tabContext(page, consume container, session, selection), status: .ok)
    }

    /// Selects the tab (and sets its search) under the container's rules. The container is
    /// looked up once, and put back only when made or changed: a write copies the session's
    /// dictionary when the store shares it.
    func selectTab(_ request: Request, _ session: inout VisitorSession, _ selection: TabSelection) -> TabVisit {
        let language = language(request, &session)
        let settings = display(request, &session)
        let isLoggedIn = session.isLoggedIn
        // A live refresh leaves the one-shot notice to the window that acted.
        var notice =
            selection.isLiveRefresh ? nil : session.takeFlash().map { Notice(text: $0.text, isError: $0.isError) }
        if selection.movesPresentation(session) { session.presentation?.layout = selection.layout }
        var (container, isChanged) = currentContainer(session, of: selection.app, at: selection.now)
        var outcome: SelectionOutcome?
        if selection.source == .tap || container.selectedTabID != selection.tabID {
            outcome = container.select(
                .tab(selection.tabID), source: selection.source, isLoggedIn: isLoggedIn, at: selection.now,
                in: selection.layout)
            isChanged = true
        }
        var content = StageContent.tab(id: selection.tabID)
        var status = HTTPStatus.ok
        var redirect: String?
        if case .refused(let refusedID, let reason) = outcome {
            content = .refused(tabID: refusedID, reason: reason)
            status = .forbidden
            notice = nil
        } else if let pushed = container.pushedItem(ofTab: selection.tabID) {
            // A tap shows the top of the tab's stack (its detail screen, answered by a redirect
            // there); any other entry by the tab's own URL is Back to its root.
            if selection.source == .tap {
                redirect = StageLinks.detail(selection.appID, selection.layout, selection.tabID, pushed)
            } else {
                _ = container.pop(onTab: selection.tabID, at: selection.now, in: selection.layout)
                isChanged = true
            }
        }
        if case .tab = content, redirect == nil, let query = selection.query, selection.changesQuery(container) {
            let result = container.perform(
                .setQuery(query), onTab: selection.tabID, isLoggedIn: isLoggedIn, at: selection.now,
                in: selection.layout)
            isChanged = true
            if case .refused(let refusal) = result {
                notice = Notice(text: UIString.pageActionRefused(refusal).localizedText, isError: true)
            }
        } else if case .tab = content, redirect == nil, selection.isSearch, selection.source == .tap,
            selection.query == nil, case .search(let kept)? = container.pageState(ofTab: selection.tabID),
            !kept.isEmpty
        {
            // A tap onto a search tab keeps its search; the URL it lands on says it.
            redirect = StageLinks.search(selection.appID, selection.layout, selection.tabID, query: kept)
        }
        if isChanged { session.containers[selection.appID] = container }
        if let redirect { return .redirect(redirect) }
        // The revision this change is about to commit (see `changeVisitor`).
        let page = TabPage(
            language: language, display: settings, revision: (session.revision ?? 0) + 1, content: content,
            notice: notice)
        return .page(tabContext(page, consume container, session, selection), status: status)
    }

    /// What a tab page shows besides its container, as the visit worked it out.
    struct TabPage {
        var language: UILanguage
        var display: DisplaySettings
        /// The revision the page shows: the session's, or the one its change is about to commit.
        var revision: UInt64
        var content: StageContent
        var notice: Notice?
    }

    /// The tab page's context. Reads the app in place from the selection's snapshot, and takes
    /// the container as it is given: do not copy either here.
    func tabContext(
        _ page: TabPage, _ container: consuming TabContainer, _ session: VisitorSession, _ selection: TabSelection
    ) -> StageContext {
        assert(selection.path == StageLinks.tab(selection.appID, selection.layout, selection.tabID))
        let appIndex = selection.appIndex
        let apps = selection.served.apps
        let live = liveStage(
            selection.appID, revision: page.revision, presentation: session.presentation, served: selection.served)
        return StageContext(
            chrome: ChromeContext(
                language: page.language, app: apps[appIndex], layout: selection.layout,
                visitorName: session.visitorName, currentPath: selection.path, csrfToken: session.csrfToken,
                display: page.display),
            app: apps[appIndex], layout: selection.layout, container: container, content: page.content,
            notice: page.notice, markup: selection.served.markups[appIndex], live: live)
    }

    /// `/{app}/{layout}/{tab}/{item}`: selects the tab (as any entry path) and pushes the item's
    /// detail screen onto its stack.
    func detailPage(_ request: Request, _ parameters: Parameters) throws -> Response {
        let located = try locate(request, parameters)
        let served = located.served
        let app = served.apps[located.appIndex]
        let layout = located.layout
        let tabID = try parameters.require("tab")
        let itemID = try parameters.require("item")
        if tabID == StageLinks.moreSegment && itemID == StageLinks.editSegment && layout.hasMoreList {
            return try editTabsPage(request, served, located.appIndex, layout: layout)
        }
        guard let tab = app.tab(id: tabID) else { return try unknownTabPage(request, tabID, app: app) }
        guard tab.page.content.items.contains(where: { $0.id == itemID }) else {
            // `…/action` is the page's form endpoint, which only POST has.
            if itemID == StageLinks.actionSegment {
                var response = Response.statusPage(.methodNotAllowed)
                response.headers["Allow"] = "POST"
                return response
            }
            return try errorPage(request, .notFound, .unknownPage, app: app)
        }
        let source = selectionSource(request)
        let now = clock()
        let visit = try withVisitor(request, create: true) { session -> DetailVisit in
            let language = language(request, &session)
            var notice = session.takeFlash().map { Notice(text: $0.text, isError: $0.isError) }
            var content = StageContent.detail(tabID: tabID, itemID: itemID)
            var status = HTTPStatus.ok
            var (container, _) = currentContainer(session, of: app, at: now)
            if container.selectedTabID != tabID,
                case .refused(let refusedID, let reason) = container.select(
                    .tab(tabID), source: source, isLoggedIn: session.isLoggedIn, at: now, in: layout)
            {
                content = .refused(tabID: refusedID, reason: reason)
                status = .forbidden
                notice = nil
            } else {
                _ = container.push(item: itemID, onTab: tabID, at: now, in: layout)
            }
            session.containers[app.id] = container
            let chrome = ChromeContext(
                language: language, app: app, layout: layout, visitorName: session.visitorName,
                currentPath: StageLinks.detail(app.id, layout, tabID, itemID), csrfToken: session.csrfToken)
            return DetailVisit(
                context: StageContext(
                    chrome: chrome, app: app, layout: layout, container: container, content: content, notice: notice,
                    markup: served.markups[located.appIndex],
                    live: liveStage(
                        app.id, revision: (session.revision ?? 0) + 1, presentation: session.presentation,
                        served: served)),
                status: status)
        }
        var response = render(visit.result.context, status: visit.result.status, request: request)
        attachCookie(visit.newSession, to: &response)
        return response
    }

    /// What a detail page takes out of the visitor's session.
    struct DetailVisit {
        var context: StageContext
        var status: HTTPStatus
    }

    func morePage(_ request: Request, _ served: ServedApps, _ appIndex: Int, layout: Layout) throws -> Response {
        let app = served.apps[appIndex]
        let now = clock()
        let isLiveRefresh = isLiveRefresh(request)
        let visit = try withVisitor(request, create: changesSettings(request)) { session in
            let chrome = ChromeContext(
                language: language(request, &session), app: app, layout: layout, visitorName: session.visitorName,
                currentPath: StageLinks.more(app.id, layout), csrfToken: session.csrfToken,
                display: display(request, &session))
            let container =
                session.containers[app.id] == nil
                ? TabContainer(app: app) : withCurrentContainer(&session, of: app, at: now) { $0 }
            let notice = isLiveRefresh ? nil : session.takeFlash().map { Notice(text: $0.text, isError: $0.isError) }
            return StageContext(
                chrome: chrome, app: app, layout: layout, container: container, content: .more, notice: notice,
                markup: served.markups[appIndex],
                live: liveStage(
                    app.id, revision: session.revision ?? 0, presentation: session.presentation, served: served))
        }
        var response = render(visit.result, status: .ok, request: request)
        attachCookie(visit.newSession, to: &response)
        return response
    }

    /// The whole document, or only the stage when the script asks for a fragment.
    /// The stage's device frames show tab pages, so they may be framed by this origin; a follow
    /// page is not among them and is framed by no one.
    func render(
        _ context: StageContext, status: HTTPStatus, request: Request,
        framing: StageResponses.Framing = .stageFrame
    ) -> Response {
        guard request.headers[StageResponses.fragmentHeader] == "1" else {
            return StageResponses.page(StagePage.document(context), status: status, framing: framing)
        }
        var response = StageResponses.page(StagePage.fragment(context), status: status, framing: framing)
        response.headers[StageResponses.fragmentHeader] = "1"
        return response
    }
}
