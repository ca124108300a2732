import Foundation
import HTTPServer
import Sessions
import TabModel
import Views

extension StageApplication {
    func home(_ request: Request) throws -> Response {
        let (chrome, newID) = try chrome(request)
        var response = StageResponses.page(HomePage.document(apps: apps, chrome: chrome))
        attachCookie(newID, to: &response)
        return response
    }

    func eventLog(_ request: Request, _ parameters: Parameters, json: Bool) throws -> Response {
        let appID = try parameters.require("app")
        guard let app = app(id: appID) else { return try errorPage(request, .notFound, .unknownApp(appID)) }
        let ((chrome, log), newID) = try withVisitor(request, create: changesLanguage(request)) { session in
            let chrome = ChromeContext(
                language: language(request, &session), app: app, visitorName: session.visitorName,
                currentPath: StageLinks.events(app.id), csrfToken: session.csrfToken)
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

    /// `/{app}/{layout}`: on to the selected tab, or, when none is selected yet, the first tab
    /// the login guard allows.
    func layoutEntry(_ request: Request, _ parameters: Parameters) throws -> Response {
        let located = try locate(request, parameters)
        let app = apps[located.appIndex]
        let (entry, _) = try withVisitor(request, create: false) { session in
            (session.containers[app.id] ?? TabContainer(app: app)).entryTabID(isLoggedIn: session.isLoggedIn)
        }
        var location = StageLinks.tab(app.id, located.layout, entry)
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
        content: StageContent, notice: Notice?, status: HTTPStatus
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
        let changesLanguage = changesLanguage(request)
        func reload(_ session: VisitorSession) -> TabVisit? {
            guard session.flash == nil, !changesLanguage, source != .tap, let container = session.containers[appID],
                container.selectedTabID == tabID, !changesQuery(container), container.pushedItem(ofTab: tabID) == nil
            else { return nil }
            return (
                language: keptLanguage(request, session), visitorName: session.visitorName,
                csrfToken: session.csrfToken, container: container, content: .tab(id: tabID), notice: nil, status: .ok
            )
        }
        let (visit, newID) = try withVisitor(request, create: true, ifUnchanged: reload) { session -> TabVisit in
            let language = language(request, &session)
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
                outcome = container.select(
                    .tab(tabID), source: source, isLoggedIn: isLoggedIn, at: now, in: layout)
                isChanged = true
            }
            var content = StageContent.tab(id: tabID)
            var status = HTTPStatus.ok
            if case .refused(let refusedID, let reason) = outcome {
                content = .refused(tabID: refusedID, reason: reason)
                status = .forbidden
                notice = nil
            } else if let pushed = container.pushedItem(ofTab: tabID) {
                // A tap shows the top of the tab's stack (its detail screen); any other entry
                // by the tab's own URL is Back to its root.
                if source == .tap {
                    session.containers[appID] = container
                    return (
                        language: language, visitorName: session.visitorName, csrfToken: session.csrfToken,
                        container: container, content: .detail(tabID: tabID, itemID: pushed), notice: notice,
                        status: .seeOther
                    )
                }
                _ = container.pop(onTab: tabID, at: now, in: layout)
                isChanged = true
            }
            if case .tab = content, let query, changesQuery(container) {
                let result = container.perform(
                    .setQuery(query), onTab: tabID, isLoggedIn: isLoggedIn, at: now, in: layout)
                isChanged = true
                if case .refused(let refusal) = result {
                    notice = Notice(text: UIString.pageActionRefused(refusal).localizedText, isError: true)
                }
            }
            if isChanged { session.containers[appID] = container }
            return (
                language: language, visitorName: session.visitorName, csrfToken: session.csrfToken,
                container: container, content: content, notice: notice, status: status
            )
        }
        // Built after the store's lock is released, from what the visit took out.
        let (pageLanguage, visitorName, csrfToken, container, content, notice, status) = visit
        if case .detail(_, let itemID) = content {
            var response = StageResponses.redirect(to: StageLinks.detail(appID, layout, tabID, itemID))
            attachCookie(newID, to: &response)
            return response
        }
        let context = StageContext(
            chrome: ChromeContext(
                language: pageLanguage, app: apps[appIndex], layout: layout, visitorName: visitorName,
                currentPath: StageLinks.tab(appID, layout, tabID), csrfToken: csrfToken),
            app: apps[appIndex], layout: layout, container: container, content: content, notice: notice,
            markup: markups[appIndex])
        var response = render(context, status: status, request: request)
        attachCookie(newID, to: &response)
        return response
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
            return try errorPage(request, .notFound, .unknownPage, app: app)
        }
        let source = selectionSource(request)
        let now = clock()
        let (context, newID) = try withVisitor(request, create: true) { session -> (StageContext, HTTPStatus) in
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
            return (
                StageContext(
                    chrome: chrome, app: app, layout: layout, container: container, content: content, notice: notice,
                    markup: markup(of: app)), status
            )
        }
        var response = render(context.0, status: context.1, request: request)
        attachCookie(newID, to: &response)
        return response
    }

    func morePage(_ request: Request, _ app: AppDescription) throws -> Response {
        let (context, newID) = try withVisitor(request, create: changesLanguage(request)) { session in
            let chrome = ChromeContext(
                language: language(request, &session), app: app, layout: .bottom, visitorName: session.visitorName,
                currentPath: StageLinks.more(app.id), csrfToken: session.csrfToken)
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
            return StageResponses.page(StagePage.document(context), status: status, varyOnFragment: true)
        }
        var response = StageResponses.page(StagePage.fragment(context), status: status, varyOnFragment: true)
        response.headers[StageResponses.fragmentHeader] = "1"
        return response
    }
}
