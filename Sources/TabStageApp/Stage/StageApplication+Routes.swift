import Foundation
import HTTPServer
import Sessions
import TabModel
import Views

extension StageApplication {
    /// Adds every page route. Fixed paths come first: an app whose id is `login`, `logout`,
    /// `theme`, `icons` or `static` would be shadowed by them.
    public func addRoutes(to router: inout Router) {
        router.get("/", guarded { [self] request, _ in try home(request) })
        router.get("/login", guarded { [self] request, _ in try loginForm(request) })
        router.post("/login", guarded { [self] request, _ in try logIn(request) })
        router.post("/logout", guarded { [self] request, _ in try logOut(request) })
        router.get("/icons", guarded { [self] request, _ in try iconGallery(request) })
        router.get("/theme/{file}", guarded { [self] request, parameters in try theme(request, parameters) })
        router.get(
            "/icons/apps/{app}/{tab}/{file}",
            guarded { [self] request, parameters in
                try appIcon(request, parameters)
            })
        router.get(
            "/icons/{name}/{file}", guarded { [self] request, parameters in try builtInIcon(request, parameters) })
        router.get(
            "/{app}/events", guarded { [self] request, parameters in try eventLog(request, parameters, json: false) })
        router.get(
            "/{app}/events.json",
            guarded { [self] request, parameters in
                try eventLog(request, parameters, json: true)
            })
        router.get("/{app}/{layout}", guarded { [self] request, parameters in try layoutEntry(request, parameters) })
        router.get("/{app}/{layout}/{tab}", guarded { [self] request, parameters in try tabPage(request, parameters) })
        router.post(
            "/{app}/{layout}/{tab}/action",
            guarded { [self] request, parameters in
                try pageAction(request, parameters)
            })
        // Anything else is a 404 in the app's look (GET) or a plain one (other methods).
        router.get("/{path...}", guarded { [self] request, _ in try errorPage(request, .notFound, .unknownPage) })
        router.post("/{path...}", guarded { [self] request, _ in try errorPage(request, .notFound, .unknownPage) })
    }

    // MARK: Shared steps

    /// The page language: `?lang=` (kept in the session), else the session's, else the browser's.
    func language(_ request: Request, _ session: inout VisitorSession) -> UILanguage {
        if let chosen = request.query["lang"].flatMap({ UILanguage(tag: $0) }) {
            session.languageTag = chosen.tag
            return chosen
        }
        return keptLanguage(request, session)
    }

    /// The page language of a request without a valid `?lang=`: the session's, else the
    /// browser's. It changes nothing, so a session that is only read can say it.
    func keptLanguage(_ request: Request, _ session: VisitorSession) -> UILanguage {
        if let kept = session.languageTag.flatMap({ UILanguage(tag: $0) }) { return kept }
        return UILanguage.negotiate(acceptLanguage: request.headers["Accept-Language"])
    }

    /// Only a valid `?lang=` changes state on pages that otherwise only read.
    func changesLanguage(_ request: Request) -> Bool {
        request.query["lang"].flatMap { UILanguage(tag: $0) } != nil
    }

    func chrome(
        _ request: Request, app: AppDescription? = nil, layout: Layout? = nil, path: String = StageLinks.home
    ) throws(SessionStoreError) -> (ChromeContext, SessionID?) {
        let (chrome, newID) = try withVisitor(request, create: changesLanguage(request)) { session in
            ChromeContext(
                language: language(request, &session), app: app, layout: layout, visitorName: session.visitorName,
                currentPath: path, csrfToken: session.csrfToken)
        }
        return (chrome, newID)
    }

    func errorPage(_ request: Request, _ status: HTTPStatus, _ message: UIString?, app: AppDescription? = nil)
        throws(SessionStoreError) -> Response
    {
        let (chrome, _) = try withVisitor(request, create: false) { session in
            ChromeContext(
                language: language(request, &session), app: app, visitorName: session.visitorName,
                csrfToken: session.csrfToken)
        }
        return StageResponses.error(status, message, chrome: chrome)
    }

    /// A cross-site form post is refused even before the SameSite cookie would stop it.
    func isSameOrigin(_ request: Request) -> Bool {
        guard let origin = request.headers["Origin"] else { return true }
        guard let host = request.headers["Host"] else { return false }
        return origin == "http://\(host)" || origin == "https://\(host)"
    }

    /// An app, by its place in `apps` (see `appIndex(id:)`), and a layout.
    struct Located {
        var appIndex: Int
        var layout: Layout
    }

    /// The app and layout a path names. A wrong one throws `Answered` with the error page saying
    /// which (`guarded` answers with it, so only guarded routes call this). The found pair is
    /// returned as it is: an enum of found-or-answered was copied three times on the way out
    /// (~500 instructions per tab page, retains and releases of the app's fields, which every
    /// thread shares). The app is returned by index, not copied: a tab page copied `Located`
    /// three times and the app once more (~120 instructions, 35 retains of shared objects).
    func locate(_ request: Request, _ parameters: Parameters) throws -> Located {
        let appID = try parameters.require("app")
        guard let appIndex = appIndex(id: appID) else {
            throw Answered(response: try errorPage(request, .notFound, .unknownApp(appID)))
        }
        let layoutName = try parameters.require("layout")
        guard let layout = Layout(rawValue: layoutName) else {
            throw Answered(
                response: try errorPage(request, .badRequest, .unknownLayout(layoutName), app: apps[appIndex]))
        }
        return Located(appIndex: appIndex, layout: layout)
    }

    // MARK: Pages

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
                container.selectedTabID == tabID, !changesQuery(container)
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
                container: container, content: content, notice: notice, status: status
            )
        }
        // Built after the store's lock is released, from what the visit took out.
        let (pageLanguage, visitorName, csrfToken, container, content, notice, status) = visit
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

    // MARK: Forms

    func pageAction(_ request: Request, _ parameters: Parameters) throws -> Response {
        let located = try locate(request, parameters)
        let app = apps[located.appIndex]
        guard isSameOrigin(request) else { return try errorPage(request, .forbidden, nil, app: app) }
        let tabID = try parameters.require("tab")
        guard app.tab(id: tabID) != nil else { return try errorPage(request, .notFound, .unknownTab(tabID), app: app) }
        let form: QueryItems
        switch try checkedPost(request, app: app, badFormMessage: .unknownAction("")) {
        case .accepted(let checked): form = checked
        case .refused(let response): return response
        }
        guard let action = PageActionForm.action(from: form) else {
            return try errorPage(
                request, .badRequest, .unknownAction(form.values(for: "action").last ?? ""), app: app)
        }
        let now = clock()
        let (_, newID) = try withVisitor(request, create: true) { session in
            let isLoggedIn = session.isLoggedIn
            let outcome = session.withContainer(for: app) {
                $0.perform(action, onTab: tabID, isLoggedIn: isLoggedIn, at: now)
            }
            // A login refusal is explained by the page the redirect leads to; say nothing twice.
            if case .refused(let refusal) = outcome, !refusal.isNeedsLogin {
                session.flash = FlashMessage(text: refusal.message, isError: true)
            }
        }
        var response = StageResponses.redirect(to: StageLinks.tab(app.id, located.layout, tabID))
        attachCookie(newID, to: &response)
        return response
    }

    static let maximumNameLength = 40

    /// A state-changing POST's form, or the page to answer instead.
    enum CheckedPost {
        case accepted(QueryItems)
        case refused(Response)
    }

    /// Accepts a POST only from this site (Origin) with the session's CSRF token: 403 otherwise,
    /// and 400 or 413 for a form that cannot be read.
    func checkedPost(_ request: Request, app: AppDescription? = nil, badFormMessage: UIString? = nil) throws
        -> CheckedPost
    {
        guard isSameOrigin(request) else { return .refused(try errorPage(request, .forbidden, nil, app: app)) }
        let form: QueryItems
        do {
            form = try request.form()
        } catch {
            return .refused(try errorPage(request, error.status, badFormMessage, app: app))
        }
        guard try hasValidCSRFToken(request, form: form) else {
            return .refused(try errorPage(request, .forbidden, nil, app: app))
        }
        return .accepted(form)
    }

    func loginForm(_ request: Request) throws -> Response {
        let next = LocalPath.validated(request.query["next"]) ?? StageLinks.home
        // The form needs a CSRF token, so showing it makes a session (see README, Security).
        let (chrome, newID) = try withVisitor(request, create: true) { session in
            ChromeContext(
                language: language(request, &session), visitorName: session.visitorName, currentPath: next,
                csrfToken: session.csrfToken)
        }
        var response = StageResponses.page(LoginPage.document(next: next, problem: nil, chrome: chrome))
        attachCookie(newID, to: &response)
        return response
    }

    func logIn(_ request: Request) throws -> Response {
        let form: QueryItems
        switch try checkedPost(request) {
        case .accepted(let checked): form = checked
        case .refused(let response): return response
        }
        // An outside address in `next` is dropped, never followed: no open redirect.
        let next = LocalPath.validated(form["next"]) ?? StageLinks.home
        let name = (form["name"] ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
        guard (1...Self.maximumNameLength).contains(name.count),
            !name.unicodeScalars.contains(where: { $0.properties.generalCategory == .control })
        else {
            let (chrome, _) = try chrome(request, path: next)
            let problem = UIString.loginNameProblem(maximum: Self.maximumNameLength)
            return StageResponses.page(
                LoginPage.document(next: next, problem: problem, chrome: chrome), status: .badRequest)
        }
        // A new id at log-in: an id planted before it (fixation) is worthless after it.
        let newID = try rotateSession(request) { session in session.visitorName = name }
        var response = StageResponses.redirect(to: next)
        attachCookie(newID, to: &response)
        return response
    }

    func logOut(_ request: Request) throws -> Response {
        let form: QueryItems
        switch try checkedPost(request) {
        case .accepted(let checked): form = checked
        case .refused(let response): return response
        }
        var next = LocalPath.validated(form["next"]) ?? StageLinks.home
        let now = clock()
        var selections: [String: String] = [:]
        // A new id at log-out too: whoever held the logged-in id holds nothing now.
        let newID = try rotateSession(request) { session in
            guard session.isLoggedIn else { return }
            session.visitorName = nil
            for appID in session.containers.keys.sorted() {
                // Leaves a login-only tab, through the container's rules.
                _ = session.containers[appID]?.visitorLoggedOut(at: now)
            }
            session.flash = FlashMessage(text: UIString.loggedOut.localizedText, isError: false)
            selections = session.containers.compactMapValues(\.selectedTabID)
        }
        // Back to the page the visitor was on, or to the tab the container moved to from there.
        let segments = next.split(separator: "/").map(String.init)
        if segments.count == 3, let selected = selections[segments[0]], let layout = Layout(rawValue: segments[1]),
            segments[2] != StageLinks.moreSegment
        {
            next = StageLinks.tab(segments[0], layout, selected)
        }
        var response = StageResponses.redirect(to: next)
        attachCookie(newID, to: &response)
        return response
    }
}

extension PageActionRefusal {
    var isNeedsLogin: Bool {
        if case .needsLogin = self { return true }
        return false
    }
}
