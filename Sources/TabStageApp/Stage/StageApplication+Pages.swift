import Foundation
import HTTPServer
import Sessions
import TabModel
import Views

extension StageApplication {
    func home(_ request: Request) throws -> Response {
        let (chrome, newID) = try chrome(request)
        var response = StageResponses.page(HomePage.document(apps: shelf.current.apps, chrome: chrome))
        attachCookie(newID, to: &response)
        return response
    }

    func eventLog(_ request: Request, _ parameters: Parameters, json: Bool) throws -> Response {
        let appID = try parameters.require("app")
        guard let app = app(id: appID) else { return try errorPage(request, .notFound, .unknownApp(appID)) }
        let now = clock()
        let ((chrome, log), newID) = try withVisitor(request, create: changesLanguage(request)) { session in
            let chrome = ChromeContext(
                language: language(request, &session), app: app, visitorName: session.visitorName,
                currentPath: StageLinks.events(app.id), csrfToken: session.csrfToken)
            guard session.containers[app.id] != nil else { return (chrome, nil as EventLog?) }
            return (chrome, withCurrentContainer(&session, of: app, at: now) { $0.log })
        }
        var response: Response
        if json {
            response = .json(EventLogPage.json(app: app, log: log))
            StageResponses.secure(&response)
            response.headers["Cache-Control"] = "no-store"
            response.headers["Vary"] = "Cookie"
        } else {
            response = StageResponses.page(EventLogPage.document(app: app, log: log, chrome: chrome))
        }
        attachCookie(newID, to: &response)
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

    /// `/{app}/{layout}`: on to the selected tab, or the first when none is selected yet.
    func layoutEntry(_ request: Request, _ parameters: Parameters) throws -> Response {
        let located = try locate(request, parameters)
        let app = located.served.apps[located.appIndex]
        let now = clock()
        let (selected, _) = try withVisitor(request, create: false) { session in
            session.containers[app.id] == nil
                ? nil : currentContainer(session, of: app, at: now).container.selectedTabID
        }
        var location = StageLinks.tab(app.id, located.layout, selected ?? app.tabs[0].id)
        if let chosen = request.query["lang"].flatMap({ UILanguage(tag: $0) }) { location += "?lang=" + chosen.tag }
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

    /// What a tab page takes out of the visitor's session: its contexts are built from it after
    /// the store's lock is released. A tuple, not a struct, so that taking it apart moves the
    /// container into the context: a struct's field was copied out (20 retains and releases).
    typealias TabVisit = (
        language: UILanguage, visitorName: String?, csrfToken: String?, container: TabContainer,
        content: StageContent, notice: Notice?, status: HTTPStatus, revision: UInt64,
        presentation: Presentation?
    )

    /// The app and the tab are read where `apps` keeps them (`apps[appIndex]`), never copied
    /// whole but into the contexts that keep them: each copy retained and released their arrays
    /// and strings, which every server thread shares.
    func tabPage(_ request: Request, _ parameters: Parameters) throws -> Response {
        let located = try locate(request, parameters)
        let (served, appIndex, layout) = (located.served, located.appIndex, located.layout)
        let apps = served.apps
        let tabID = try parameters.require("tab")
        if tabID == StageLinks.moreSegment && layout == .bottom {
            return try morePage(request, served, appIndex)
        }
        // Only the app's id and tabs are taken out: `apps[appIndex].index(ofTab:)` copied the
        // whole app (6 retains and releases of objects every thread shares).
        let appID = apps[appIndex].id
        let tabs = apps[appIndex].tabs
        guard let tabIndex = tabs.firstIndex(where: { $0.id == tabID }) else {
            return try errorPage(request, .notFound, .unknownTab(tabID), app: apps[appIndex])
        }
        let isSearch = tabs[tabIndex].page.kind == .search
        let source = selectionSource(request)
        let now = clock()
        let query = isSearch ? request.query["q"] : nil
        func changesQuery(_ container: TabContainer) -> Bool {
            guard let query else { return false }
            return container.pageState(ofTab: tabID) != .search(query: query)
        }
        // A reload of the tab on screen, with no message to show and no language or search
        // to keep, reads the session and writes nothing. The selected tab opened again by URL
        // is a reload (or the page a form post redirects to), not a reselection: only a tap on
        // the bar reselects.
        let changesLanguage = changesLanguage(request)
        let isLiveRefresh = isLiveRefresh(request)
        // A presenter's followers see the layout the presenter last showed.
        func movesPresentation(_ session: VisitorSession) -> Bool {
            guard let presentation = session.presentation else { return false }
            return presentation.appID == appID && presentation.layout != layout
        }
        func reload(_ session: VisitorSession) -> TabVisit? {
            guard session.flash == nil || isLiveRefresh, !changesLanguage, source != .tap,
                let container = session.containers[appID], container.selectedTabID == tabID,
                !changesQuery(container), Self.isCurrent(container, for: apps[appIndex]),
                !movesPresentation(session)
            else { return nil }
            return (
                language: keptLanguage(request, session), visitorName: session.visitorName,
                csrfToken: session.csrfToken, container: container, content: .tab(id: tabID), notice: nil, status: .ok,
                revision: session.revision ?? 0, presentation: session.presentation
            )
        }
        let (visit, newID) = try withVisitor(request, create: true, ifUnchanged: reload) { session -> TabVisit in
            let language = language(request, &session)
            let isLoggedIn = session.isLoggedIn
            var notice =
                isLiveRefresh ? nil : session.takeFlash().map { Notice(text: $0.text, isError: $0.isError) }
            if movesPresentation(session) { session.presentation?.layout = layout }
            // The container is looked up once, and put back only when made or changed: each
            // lookup hashed the app id and copied the container (3 of them cost ~2,000
            // instructions), and a write copies the session's dictionary when the store shares it.
            var (container, isChanged) = currentContainer(session, of: apps[appIndex], at: now)
            var outcome: SelectionOutcome?
            if source == .tap || container.selectedTabID != tabID {
                outcome = container.select(.tab(tabID), source: source, isLoggedIn: isLoggedIn, at: now)
                isChanged = true
            }
            var content = StageContent.tab(id: tabID)
            var status = HTTPStatus.ok
            if case .needsLogin(let then, let reason) = outcome {
                content = .refused(tabID: then, reason: reason)
                status = .forbidden
                notice = nil
            } else if let query, changesQuery(container) {
                let result = container.perform(.setQuery(query), onTab: tabID, isLoggedIn: isLoggedIn, at: now)
                isChanged = true
                if case .refused(let refusal) = result { notice = Notice(text: refusal.message, isError: true) }
            }
            if isChanged { session.containers[appID] = container }
            return (
                language: language, visitorName: session.visitorName, csrfToken: session.csrfToken,
                container: container, content: content, notice: notice, status: status,
                // The revision this change is about to commit (see `changeVisitor`).
                revision: (session.revision ?? 0) + 1, presentation: session.presentation
            )
        }
        // Built after the store's lock is released, from what the visit took out.
        let (pageLanguage, visitorName, csrfToken, container, content, notice, status, revision, presentation) =
            visit
        let context = StageContext(
            chrome: ChromeContext(
                language: pageLanguage, app: apps[appIndex], layout: layout, visitorName: visitorName,
                currentPath: StageLinks.tab(appID, layout, tabID), csrfToken: csrfToken),
            app: apps[appIndex], layout: layout, container: container, content: content, notice: notice,
            markup: served.markups[appIndex],
            live: liveStage(appID, revision: revision, presentation: presentation, served: served))
        var response = render(context, status: status, request: request)
        attachCookie(newID, to: &response)
        return response
    }

    func morePage(_ request: Request, _ served: ServedApps, _ appIndex: Int) throws -> Response {
        let app = served.apps[appIndex]
        let now = clock()
        let isLiveRefresh = isLiveRefresh(request)
        let (context, newID) = try withVisitor(request, create: changesLanguage(request)) { session in
            let chrome = ChromeContext(
                language: language(request, &session), app: app, layout: .bottom, visitorName: session.visitorName,
                currentPath: StageLinks.more(app.id), csrfToken: session.csrfToken)
            let container =
                session.containers[app.id] == nil
                ? TabContainer(app: app) : withCurrentContainer(&session, of: app, at: now) { $0 }
            let notice = isLiveRefresh ? nil : session.takeFlash().map { Notice(text: $0.text, isError: $0.isError) }
            return StageContext(
                chrome: chrome, app: app, layout: .bottom, container: container, content: .more, notice: notice,
                markup: served.markups[appIndex],
                live: liveStage(
                    app.id, revision: session.revision ?? 0, presentation: session.presentation, served: served))
        }
        var response = render(context, status: .ok, request: request)
        attachCookie(newID, to: &response)
        return response
    }

    /// The whole document, or only the stage when the script asks for a fragment.
    func render(_ context: StageContext, status: HTTPStatus, request: Request) -> Response {
        guard request.headers[StageResponses.fragmentHeader] == "1" else {
            return StageResponses.page(StagePage.document(context), status: status, varyOnFragment: true)
        }
        var response = StageResponses.page(StagePage.fragment(context), status: status, varyOnFragment: true)
        response.headers[StageResponses.fragmentHeader] = "1"
        return response
    }
}
