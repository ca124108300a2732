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
        let visit = try withVisitor(request, create: changesSettings(request)) { session in
            EventLogVisit(
                chrome: ChromeContext(
                    language: language(request, &session), app: app, visitorName: session.visitorName,
                    currentPath: StageLinks.events(app.id), csrfToken: session.csrfToken,
                    display: display(request, &session)),
                log: session.containers[app.id]?.log)
        }
        var response: Response
        if json {
            response = .json(EventLogPage.json(app: app, log: visit.result.log))
            StageResponses.secure(&response)
            response.headers["Cache-Control"] = "no-store"
        } else {
            response = StageResponses.page(
                EventLogPage.document(app: app, log: visit.result.log, chrome: visit.result.chrome))
        }
        attachCookie(visit.newSession, to: &response)
        return response
    }

    /// `/{app}`: on to the app's own layout (its description's `layout`), keeping `?lang=`.
    func appEntry(_ request: Request, _ parameters: Parameters) throws -> Response {
        let appID = try parameters.require("app")
        guard let appIndex = appIndex(id: appID) else { return try errorPage(request, .notFound, .unknownApp(appID)) }
        var location = "/" + appID + "/" + apps[appIndex].defaultLayout.rawValue
        if let chosen = request.query["lang"].flatMap({ UILanguage(tag: $0) }) { location += "?lang=" + chosen.tag }
        return StageResponses.redirect(to: location)
    }

    /// `/{app}/{layout}`: on to the selected tab, or, when none is selected yet, the first tab
    /// the login guard allows.
    func layoutEntry(_ request: Request, _ parameters: Parameters) throws -> Response {
        let located = try locate(request, parameters)
        let app = apps[located.appIndex]
        let entry = try withVisitor(request, create: false) { session in
            (session.containers[app.id] ?? TabContainer(app: app)).entryTabID(isLoggedIn: session.isLoggedIn)
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
    /// Reads the app in place (`apps[appIndex]`, see `appIndex(id:)`): on this path nothing
    /// copies `AppDescription`; the contexts take only what they keep.
    func tabPage(_ request: Request, _ parameters: Parameters) throws -> Response {
        let located = try locate(request, parameters)
        let tabID = try parameters.require("tab")
        if tabID == StageLinks.moreSegment && located.layout == .bottom {
            return try morePage(request, apps[located.appIndex])
        }
        guard let tabIndex = apps[located.appIndex].tabs.firstIndex(where: { $0.id == tabID }) else {
            return try errorPage(request, .notFound, .unknownTab(tabID), app: apps[located.appIndex])
        }
        let isSearch = apps[located.appIndex].tabs[tabIndex].page.kind == .search
        let selection = TabSelection(
            appIndex: located.appIndex, appID: apps[located.appIndex].id, layout: located.layout, tabID: tabID,
            source: selectionSource(request), query: isSearch ? request.query["q"] : nil,
            changesSettings: changesSettings(request), now: clock())
        let visit = try withVisitor(
            request, create: true, ifUnchanged: { session in reloadedTab(request, session, selection) },
            { session in selectTab(request, &session, selection) })
        var response: Response
        if case .detail(_, let itemID) = visit.result.content {
            response = StageResponses.redirect(
                to: StageLinks.detail(selection.appID, selection.layout, selection.tabID, itemID))
        } else {
            response = render(tabContext(visit.result, selection), status: visit.result.status, request: request)
        }
        attachCookie(visit.newSession, to: &response)
        return response
    }

    /// What a GET of a tab asks for, read from the request before the session is touched.
    struct TabSelection {
        var appIndex: Int
        var appID: String
        var layout: Layout
        var tabID: String
        var source: SelectionSource
        /// `?q=` on a search tab; nil on other tabs.
        var query: String?
        /// `?lang=`, `?appearance=` or `?frame=` asks for a setting the session keeps.
        var changesSettings: Bool
        var now: Date

        /// Whether the request's search differs from the one the tab shows.
        func changesQuery(_ container: TabContainer) -> Bool {
            guard let query else { return false }
            return container.pageState(ofTab: tabID) != .search(query: query)
        }
    }

    /// What a tab page takes out of the visitor's session: its contexts are built from it after
    /// the store's lock is released.
    struct TabVisit {
        var language: UILanguage
        var visitorName: String?
        var csrfToken: String?
        var container: TabContainer
        var content: StageContent
        var notice: Notice?
        var status: HTTPStatus
        var display: DisplaySettings
    }

    /// A reload of the tab on screen, with no message to show and no language or search to keep,
    /// reads the session and writes nothing; nil for any other visit. The selected tab opened
    /// again by URL is a reload (or the page a form post redirects to), not a reselection: only
    /// a tap on the bar reselects.
    func reloadedTab(_ request: Request, _ session: VisitorSession, _ selection: TabSelection) -> TabVisit? {
        guard session.flash == nil, !selection.changesSettings, selection.source != .tap,
            let container = session.containers[selection.appID], container.selectedTabID == selection.tabID,
            !selection.changesQuery(container), container.pushedItem(ofTab: selection.tabID) == nil
        else { return nil }
        return TabVisit(
            language: keptLanguage(request, session), visitorName: session.visitorName,
            csrfToken: session.csrfToken, container: container, content: .tab(id: selection.tabID), notice: nil,
            status: .ok, display: keptDisplay(request, session))
    }

    /// Selects the tab (and sets its search) under the container's rules. The container is
    /// looked up once, and put back only when made or changed: a write copies the session's
    /// dictionary when the store shares it.
    func selectTab(_ request: Request, _ session: inout VisitorSession, _ selection: TabSelection) -> TabVisit {
        let language = language(request, &session)
        let settings = display(request, &session)
        let isLoggedIn = session.isLoggedIn
        var notice = session.takeFlash().map { Notice(text: $0.text, isError: $0.isError) }
        var container: TabContainer
        var isChanged = false
        if let stored = session.containers[selection.appID] {
            container = stored
        } else {
            container = TabContainer(app: apps[selection.appIndex])
            isChanged = true
        }
        var outcome: SelectionOutcome?
        if selection.source == .tap || container.selectedTabID != selection.tabID {
            outcome = container.select(
                .tab(selection.tabID), source: selection.source, isLoggedIn: isLoggedIn, at: selection.now,
                in: selection.layout)
            isChanged = true
        }
        var content = StageContent.tab(id: selection.tabID)
        var status = HTTPStatus.ok
        if case .refused(let refusedID, let reason) = outcome {
            content = .refused(tabID: refusedID, reason: reason)
            status = .forbidden
            notice = nil
        } else if let pushed = container.pushedItem(ofTab: selection.tabID) {
            // A tap shows the top of the tab's stack (its detail screen, answered by a redirect
            // there); any other entry by the tab's own URL is Back to its root.
            if selection.source == .tap {
                content = .detail(tabID: selection.tabID, itemID: pushed)
                status = .seeOther
            } else {
                _ = container.pop(onTab: selection.tabID, at: selection.now, in: selection.layout)
                isChanged = true
            }
        }
        if case .tab = content, let query = selection.query, selection.changesQuery(container) {
            let result = container.perform(
                .setQuery(query), onTab: selection.tabID, isLoggedIn: isLoggedIn, at: selection.now,
                in: selection.layout)
            isChanged = true
            if case .refused(let refusal) = result {
                notice = Notice(text: UIString.pageActionRefused(refusal).localizedText, isError: true)
            }
        }
        if isChanged { session.containers[selection.appID] = container }
        return TabVisit(
            language: language, visitorName: session.visitorName, csrfToken: session.csrfToken,
            container: container, content: content, notice: notice, status: status, display: settings)
    }

    /// The tab page's context, from what the visit took out of the session.
    func tabContext(_ visit: consuming TabVisit, _ selection: TabSelection) -> StageContext {
        let appIndex = selection.appIndex
        return StageContext(
            chrome: ChromeContext(
                language: visit.language, app: apps[appIndex], layout: selection.layout,
                visitorName: visit.visitorName,
                currentPath: StageLinks.tab(selection.appID, selection.layout, selection.tabID),
                csrfToken: visit.csrfToken, display: visit.display),
            app: apps[appIndex], layout: selection.layout, container: visit.container, content: visit.content,
            notice: visit.notice, markup: markups[appIndex])
    }

    /// `/{app}/{layout}/{tab}/{item}`: selects the tab (as any entry path) and pushes the item's
    /// detail screen onto its stack.
    func detailPage(_ request: Request, _ parameters: Parameters) throws -> Response {
        let located = try locate(request, parameters)
        let app = apps[located.appIndex]
        let layout = located.layout
        let tabID = try parameters.require("tab")
        let itemID = try parameters.require("item")
        guard let tab = app.tab(id: tabID) else {
            return try errorPage(request, .notFound, .unknownTab(tabID), app: app)
        }
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
            var container = session.containers[app.id] ?? TabContainer(app: app)
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
                    markup: markup(of: app)), status: status)
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

    func morePage(_ request: Request, _ app: AppDescription) throws -> Response {
        let visit = try withVisitor(request, create: changesSettings(request)) { session in
            let chrome = ChromeContext(
                language: language(request, &session), app: app, layout: .bottom, visitorName: session.visitorName,
                currentPath: StageLinks.more(app.id), csrfToken: session.csrfToken,
                display: display(request, &session))
            return StageContext(
                chrome: chrome, app: app, layout: .bottom,
                container: session.containers[app.id] ?? TabContainer(app: app), content: .more,
                notice: session.takeFlash().map { Notice(text: $0.text, isError: $0.isError) }, markup: markup(of: app))
        }
        var response = render(visit.result, status: .ok, request: request)
        attachCookie(visit.newSession, to: &response)
        return response
    }

    /// The whole document, or only the stage when the script asks for a fragment.
    func render(_ context: StageContext, status: HTTPStatus, request: Request) -> Response {
        guard request.headers[StageResponses.fragmentHeader] == "1" else {
            return StageResponses.page(StagePage.document(context), status: status, framing: .stageFrame)
        }
        var response = StageResponses.page(StagePage.fragment(context), status: status, framing: .stageFrame)
        response.headers[StageResponses.fragmentHeader] = "1"
        return response
    }
}
