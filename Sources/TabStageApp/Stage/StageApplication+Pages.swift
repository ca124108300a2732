import Foundation
import HTTPServer
import Sessions
import TabModel
import Views

extension StageApplication {
    func home(_ request: Request) throws -> Response {
        let (chrome, newID) = try chrome(request)
        var response = StageResponses.page(HomePage.document(apps: apps, files: appFiles, chrome: chrome))
        attachCookie(newID, to: &response)
        return response
    }

    func eventLog(_ request: Request, _ parameters: Parameters, json: Bool) throws -> Response {
        let appID = try parameters.require("app")
        guard let app = app(id: appID) else { return try errorPage(request, .notFound, .unknownApp(appID)) }
        let ((chrome, log), newID) = try withVisitor(request, create: changesSettings(request)) { session in
            let chrome = ChromeContext(
                language: language(request, &session), app: app, visitorName: session.visitorName,
                currentPath: StageLinks.events(app.id), csrfToken: session.csrfToken,
                display: display(request, &session))
            return (chrome, session.containers[app.id]?.log)
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

    /// `/{app}/{layout}`: on to the selected tab, or the first when none is selected yet.
    func layoutEntry(_ request: Request, _ parameters: Parameters) throws -> Response {
        let located = try locate(request, parameters)
        let app = apps[located.appIndex]
        let (selected, _) = try withVisitor(request, create: false) { session in
            session.containers[app.id]?.selectedTabID
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
        content: StageContent, notice: Notice?, status: HTTPStatus, display: DisplaySettings
    )

    /// The app and the tab are read where `apps` keeps them (`apps[appIndex]`), never copied
    /// whole but into the contexts that keep them: each copy retained and released their arrays
    /// and strings, which every server thread shares.
    func tabPage(_ request: Request, _ parameters: Parameters) throws -> Response {
        let located = try locate(request, parameters)
        let (appIndex, layout) = (located.appIndex, located.layout)
        let tabID = try parameters.require("tab")
        if tabID == StageLinks.moreSegment && layout == .bottom {
            return try morePage(request, apps[appIndex])
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
        let isChangingSettings = changesSettings(request)
        func reload(_ session: VisitorSession) -> TabVisit? {
            guard session.flash == nil, !isChangingSettings, source != .tap, let container = session.containers[appID],
                container.selectedTabID == tabID, !changesQuery(container)
            else { return nil }
            return (
                language: keptLanguage(request, session), visitorName: session.visitorName,
                csrfToken: session.csrfToken, container: container, content: .tab(id: tabID), notice: nil, status: .ok,
                display: keptDisplay(request, session)
            )
        }
        let (visit, newID) = try withVisitor(request, create: true, ifUnchanged: reload) { session -> TabVisit in
            let language = language(request, &session)
            let pageDisplay = display(request, &session)
            let isLoggedIn = session.isLoggedIn
            var notice = session.takeFlash().map { Notice(text: $0.text, isError: $0.isError) }
            // The container is looked up once, and put back only when made or changed: each
            // lookup hashed the app id and copied the container (3 of them cost ~2,000
            // instructions), and a write copies the session's dictionary when the store shares it.
            var container: TabContainer
            var isChanged = false
            if let stored = session.containers[appID] {
                container = stored
            } else {
                container = TabContainer(app: apps[appIndex])
                isChanged = true
            }
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
                container: container, content: content, notice: notice, status: status, display: pageDisplay
            )
        }
        // Built after the store's lock is released, from what the visit took out.
        let (pageLanguage, visitorName, csrfToken, container, content, notice, status, pageSettings) = visit
        let context = StageContext(
            chrome: ChromeContext(
                language: pageLanguage, app: apps[appIndex], layout: layout, visitorName: visitorName,
                currentPath: StageLinks.tab(appID, layout, tabID), csrfToken: csrfToken, display: pageSettings),
            app: apps[appIndex], layout: layout, container: container, content: content, notice: notice,
            markup: markups[appIndex])
        var response = render(context, status: status, request: request)
        attachCookie(newID, to: &response)
        return response
    }

    func morePage(_ request: Request, _ app: AppDescription) throws -> Response {
        let (context, newID) = try withVisitor(request, create: changesSettings(request)) { session in
            let chrome = ChromeContext(
                language: language(request, &session), app: app, layout: .bottom, visitorName: session.visitorName,
                currentPath: StageLinks.more(app.id), csrfToken: session.csrfToken,
                display: display(request, &session))
            return StageContext(
                chrome: chrome, app: app, layout: .bottom,
                container: session.containers[app.id] ?? TabContainer(app: app), content: .more,
                notice: session.takeFlash().map { Notice(text: $0.text, isError: $0.isError) }, markup: markup(of: app))
        }
        var response = render(context, status: .ok, request: request)
        attachCookie(newID, to: &response)
        return response
    }

    /// The whole document, or only the stage when the script asks for a fragment.
    func render(_ context: StageContext, status: HTTPStatus, request: Request) -> Response {
        guard request.headers[StageResponses.fragmentHeader] == "1" else {
            return StageResponses.page(
                StagePage.document(context), status: status, varyOnFragment: true, framing: .stageFrame)
        }
        var response = StageResponses.page(
            StagePage.fragment(context), status: status, varyOnFragment: true, framing: .stageFrame)
        response.headers[StageResponses.fragmentHeader] = "1"
        return response
    }
}
