import Foundation
import HTTPServer
import Sessions
import TabModel
import Views

/// The one wrapper every page goes through, as a request context and a session middleware
/// would be: it resolves the served app (or answers 404) and the layout, the settings the
/// request asks for, the visitor's session, the header strip and the one-shot notice, once per
/// request; runs the handler, which returns a value (`PageAnswer`); then renders it after the
/// session is let go, sets the cookie of a session the request made, and logs what was refused.
/// A failing session store answers 503 with a log line naming the problem.
final class PageRoutes: Sendable {
    let visitors: Visitors
    let shelf: AppShelf
    /// Counts a presenter's followers for the screens they draw.
    let liveStreams: LiveStreams
    /// Where refusals and a failing store are reported (standard error when serving).
    let log: @Sendable (String) -> Void
    /// What makes a presenter's follow link absolute (`serve --public-url`, else the request's host).
    let followLinks: FollowLinks
    /// Stage pages as last drawn, sent again for an equal context.
    let renderedPages = RenderedPages()

    init(
        visitors: Visitors, shelf: AppShelf, liveStreams: LiveStreams, log: @escaping @Sendable (String) -> Void,
        followLinks: FollowLinks = FollowLinks()
    ) {
        self.visitors = visitors
        self.shelf = shelf
        self.liveStreams = liveStreams
        self.log = log
        self.followLinks = followLinks
    }

    /// What a route's path names besides fixed segments.
    enum Scope {
        /// No app: the start page, the log-in form, the icon gallery.
        case site
        /// `{app}`, answered 404 when it is not served.
        case app
        /// `{app}` and `{layout}`, a bad layout answered 400.
        case layout
    }

    /// When a visit stores a session the visitor does not have yet.
    enum Creation {
        case never
        /// When the request asks for a setting to keep (`?lang=`, `?appearance=`, `?frame=`).
        case forSettings
        /// Always: the page carries a form, which needs the session's CSRF token.
        case always
    }

    /// How a page visits the session.
    struct Visiting {
        var creates: Creation = .forSettings
        /// The page shows (and so takes) the one-shot notice.
        var showsNotice = false
        /// A visit that may leave the session as it is reads it first (see `Visitors.visit`).
        var readsFirst = false
        /// A cross-site request is refused before the session is touched (see `isSameOrigin`).
        var sameOriginOnly = false
        /// A POST from this site whose form carries the session's CSRF token, checked under the
        /// session's lock (as `form` does); implies `sameOriginOnly`.
        var takesToken = false
        /// While the visitor records a test, the request goes into the recording (`Recorder`);
        /// recording's own routes and presenting are left out.
        var isRecorded = true
    }

    typealias Handler<Found> = @Sendable (PageVisit, Found, inout VisitorSession) -> PageAnswer
    typealias FormHandler = @Sendable (PageVisit, QueryItems, inout VisitorSession) -> PageAnswer
    typealias PlainHandler = @Sendable (PageRequest) throws(SessionStoreError) -> PageAnswer

    // MARK: Route kinds

    /// A page that visits the session. `find` runs first, outside the session's lock: it looks
    /// up what the path names (a tab, an item, a presenter's session) and refuses before any
    /// session is touched or made when there is no such thing.
    func page<Found>(
        _ scope: Scope, visiting: Visiting = Visiting(),
        find: @escaping @Sendable (PageRequest) throws(SessionStoreError) -> Result<Found, Refusal>,
        _ handler: @escaping Handler<Found>
    ) -> Router.Handler {
        guarded { [self] request, parameters in
            let (page, refused) = resolve(scope, request, parameters)
            if let refused { return try refuse(refused, page) }
            if visiting.sameOriginOnly && !Self.isSameOrigin(page.request) {
                return try refuse(Refusal(.forbidden), page)
            }
            var form: QueryItems?
            if visiting.takesToken {
                switch Self.form(of: page.request, badForm: nil) {
                case .success(let read): form = read
                case .failure(let refusal): return try refuse(refusal, page)
                }
            }
            let found: Found
            switch try find(page) {
            case .success(let value): found = value
            case .failure(let refusal): return try refuse(refusal, page)
            }
            return try visit(page, visiting) { visit, session in
                if let form, !Visitors.carriesToken(form, of: session) { return .refusal(Refusal(.forbidden)) }
                return handler(visit, found, &session)
            }
        }
    }

    func page(_ scope: Scope, visiting: Visiting = Visiting(), _ handler: @escaping Handler<Void>) -> Router.Handler {
        page(scope, visiting: visiting, find: { _ in .success(()) }, handler)
    }

    /// A state-changing POST visiting the session: accepted only from this site (`Origin`) with
    /// the session's CSRF token, checked under the session's lock. A form that cannot be read is
    /// refused with `badForm` (400, or 413 when too large); a post without a session makes none.
    func form(_ scope: Scope, badForm: UIString? = nil, isRecorded: Bool = true, _ handler: @escaping FormHandler)
        -> Router.Handler
    {
        guarded { [self] request, parameters in
            let (page, refused) = resolve(scope, request, parameters)
            if let refused { return try refuse(refused, page) }
            let form: QueryItems
            switch Self.form(of: page.request, badForm: badForm) {
            case .success(let read): form = read
            case .failure(let refusal): return try refuse(refusal, page)
            }
            return try visit(page, Visiting(creates: .never, isRecorded: isRecorded)) { visit, session in
                guard Visitors.carriesToken(form, of: session) else { return .refusal(Refusal(.forbidden)) }
                return handler(visit, form, &session)
            }
        }
    }

    /// A route that does not visit the session itself (assets, streams): the wrapper reads the
    /// session only for an answer drawn in the app's look.
    func plain(_ scope: Scope, _ handler: @escaping PlainHandler) -> Router.Handler {
        guarded { [self] request, parameters in
            let (page, refused) = resolve(scope, request, parameters)
            if let refused { return try refuse(refused, page) }
            return try respond(handler(page), page)
        }
    }

    /// A POST that moves the session (log-in, log-out): its CSRF token is checked on a read of
    /// the session, then the handler moves it.
    func sessionForm(_ handler: @escaping @Sendable (PageRequest, QueryItems) throws(SessionStoreError) -> PageAnswer)
        -> Router.Handler
    {
        guarded { [self] request, parameters in
            let (page, _) = resolve(.site, request, parameters)
            switch Self.form(of: page.request, badForm: nil) {
            case .success(let form):
                guard Visitors.carriesToken(form, of: try visitors.read(page.request)) else {
                    return try refuse(Refusal(.forbidden), page)
                }
                return try respond(handler(page, form), page)
            case .failure(let refusal):
                return try refuse(refusal, page)
            }
        }
    }

    /// Answers a path no route matches, whatever its method, in the app's look.
    var notFound: Router.Handler {
        guarded { [self] request, parameters in
            try refuse(.notFound(.unknownPage), resolve(.site, request, parameters).page)
        }
    }

    // MARK: Resolving the request

    /// The request's context, and why it is refused when its path names no served app or no
    /// layout (the context then names no app, or only the app).
    private func resolve(_ scope: Scope, _ request: consuming Request, _ parameters: Parameters) -> (
        page: PageRequest, refused: Refusal?
    ) {
        let served = shelf.current
        var appIndex: Int?
        var layout: Layout?
        var refused: Refusal?
        if scope != .site {
            let appID = parameters["app"] ?? ""
            appIndex = served.index(ofApp: appID)
            if appIndex == nil { refused = .notFound(.unknownApp(appID)) }
        }
        if scope == .layout, refused == nil {
            let name = parameters["layout"] ?? ""
            layout = Layout(rawValue: name)
            if layout == nil { refused = Refusal(.badRequest, .unknownLayout(name)) }
        }
        let page = PageRequest(
            request: request, parameters: parameters, served: served, appIndex: appIndex, layout: layout,
            now: visitors.clock())
        return (page, refused)
    }

    /// The form of a state-changing POST from this site.
    private static func form(of request: Request, badForm: UIString?) -> Result<QueryItems, Refusal> {
        guard isSameOrigin(request) else { return .failure(Refusal(.forbidden)) }
        do throws(FormError) {
            return .success(try request.form())
        } catch {
            return .failure(Refusal(error.status, badForm))
        }
    }

    /// A cross-site form post is refused even before the SameSite cookie would stop it: the
    /// `Origin` a browser sends with a post must be this host's.
    static func isSameOrigin(_ request: Request) -> Bool {
        guard let origin = request.headers["Origin"] else { return true }
        guard let host = request.headers["Host"] else { return false }
        return origin == "http://\(host)" || origin == "https://\(host)"
    }

    // MARK: Visiting the session

    /// The visitor as a page shows them, read under the session's lock.
    // swift-format-ignore: UseShorthandTypeNames
    struct Viewer {
        var language: PageLanguage
        var display: DisplaySettings
        // Spelled Optional<…>, as RequestedSettings' are: a `T?` variable starts out nil, and
        // the initializer then writes over an already whole value, which copies it.
        var name: Optional<String>
        var csrfToken: Optional<String>
        var presentation: Optional<Presentation>
        var recording: RecordingStatus
        var revision: UInt64 = 0
        var newSession: Optional<SessionID> = nil

        /// No one's: for answers that draw no page.
        static let nobody = Viewer(
            VisitorSession(), language: .english, display: DisplaySettings())

        /// Borrows the session (an initializer's parameter is otherwise a copy of its own): only
        /// the fields a page shows are copied out.
        init(_ session: borrowing VisitorSession, language: PageLanguage, display: DisplaySettings) {
            self.language = language
            self.display = display
            name = session.visitorName
            csrfToken = session.csrfToken
            presentation = session.presentation
            recording = RecordingStatus(session.recording)
        }
    }

    private func visit(
        _ page: PageRequest, _ visiting: Visiting, _ handler: (PageVisit, inout VisitorSession) -> PageAnswer
    ) throws(SessionStoreError) -> Response {
        let settings = page.settings
        let create =
            switch visiting.creates {
            case .never: false
            case .forSettings: settings.changesSession
            case .always: true
            }
        let takesNotice = visiting.showsNotice && !page.isLiveRefresh
        let visit = try visitors.visit(
            page.request, create: create, readsFirst: visiting.readsFirst && !settings.changesSession
        ) { session -> (PageAnswer, Viewer) in
            settings.keep(in: &session)
            let language = settings.language(of: session)
            let display = settings.display(of: session)
            let notice = takesNotice ? session.takeFlash().map { Notice(text: $0.text, isError: $0.isError) } : nil
            let mark = Recorder.mark(page, session)
            let answer = PresentedScreens.record(
                handler(PageVisit(page: page, language: language, display: display, notice: notice), &session), page,
                in: &session)
            if visiting.isRecorded { Recorder.record(page, answer, since: mark, in: &session) }
            return (consume answer, Viewer(session, language: language, display: display))
        }
        let (revision, newSession) = (visit.revision, visit.newSession)
        // Moved out, not copied: the answer may hold the visitor's container.
        var (answer, viewer) = (consume visit).result
        viewer.revision = revision
        viewer.newSession = newSession
        return try self.answer(answer, page, viewer)
    }

    /// The visitor for a page drawn outside a visit: read, or stored when the request asks for
    /// a setting to keep.
    private func viewer(_ request: Request, settings: RequestedSettings, create: Bool) throws(SessionStoreError)
        -> Viewer
    {
        let visit = try visitors.visit(request, create: create) { session in
            settings.keep(in: &session)
            return Viewer(session, language: settings.language(of: session), display: settings.display(of: session))
        }
        var viewer = visit.result
        viewer.revision = visit.revision
        viewer.newSession = visit.newSession
        return viewer
    }

    // MARK: Answering

    /// The answer of a route that did not visit the session: the session is read only for an
    /// answer drawn in the app's look.
    private func respond(_ answer: consuming PageAnswer, _ page: PageRequest) throws(SessionStoreError) -> Response {
        switch answer {
        case .screen, .page:
            let settings = page.settings
            let viewer = try viewer(page.request, settings: settings, create: settings.changesSession)
            return try self.answer(answer, page, viewer)
        case .refusal(let refusal):
            return try refuse(refusal, page)
        case .redirect, .moved, .response:
            return try self.answer(answer, page, .nobody)
        }
    }

    private func answer(_ answer: consuming PageAnswer, _ page: PageRequest, _ viewer: Viewer)
        throws(SessionStoreError) -> Response
    {
        var response: Response
        switch consume answer {
        case .screen(let container, let screen):
            response = render(container, screen, page, viewer)
        case .page(let shown):
            let chrome = ChromeContext(
                language: viewer.language, app: page.appIndex.map { page.served.apps[$0] }, visitorName: viewer.name,
                currentPath: shown.returnPath ?? page.request.path, csrfToken: viewer.csrfToken,
                display: viewer.display)
            response = StageResponses.page(shown.render(chrome), status: shown.status, framing: shown.framing)
        case .refusal(let refusal):
            response = errorPage(refusal, page.request, app: page.appIndex.map { page.served.apps[$0] }, viewer)
        case .redirect(let location, let ending):
            if let ending { try endPresentation(ending) }
            response = StageResponses.redirect(to: location)
        case .moved(let id, let location):
            response = StageResponses.redirect(to: location)
            visitors.attachCookie(id, to: &response)
        case .response(let given):
            response = given
        }
        visitors.attachCookie(viewer.newSession, to: &response)
        return response
    }

    /// The error page of a refusal made before any visit: the session is read for the strip.
    private func refuse(_ refusal: Refusal, _ page: PageRequest) throws(SessionStoreError) -> Response {
        let viewer = try viewer(page.request, settings: page.settings, create: false)
        return errorPage(refusal, page.request, app: page.appIndex.map { page.served.apps[$0] }, viewer)
    }

    private func errorPage(_ refusal: Refusal, _ request: Request, app: AppDescription?, _ viewer: Viewer) -> Response {
        if let allowed = refusal.allowed {
            var response = Response.statusPage(refusal.status)
            response.headers["Allow"] = allowed
            return response
        }
        if let logged = refusal.logged {
            log("tabstage: refused \(request.method.rawValue) \(request.path): \(logged)")
        }
        let chrome = ChromeContext(
            language: viewer.language, app: app, visitorName: viewer.name, csrfToken: viewer.csrfToken,
            display: viewer.display)
        return StageResponses.error(refusal.status, refusal.message, chrome: chrome)
    }

    /// A screen: the whole document, or only the stage when the script asks for a fragment.
    private func render(_ container: consuming TabContainer, _ screen: Screen, _ page: PageRequest, _ viewer: Viewer)
        -> Response
    {
        let appIndex = page.appIndex ?? 0
        let app = page.served.apps[appIndex]
        var layout = page.layout ?? .bottom
        let chrome: ChromeContext
        let live: LiveStage
        let framing: StageResponses.Framing
        switch screen.audience {
        case .visitor:
            chrome = ChromeContext(
                language: viewer.language, app: app, layout: layout, visitorName: viewer.name,
                currentPath: page.request.path, csrfToken: viewer.csrfToken, display: viewer.display)
            var visitorLive = liveStage(
                appIndex, revision: viewer.revision, presentation: viewer.presentation, page.served, page.request)
            visitorLive.recording = viewer.recording
            live = visitorLive
            framing = .stageFrame
        case .follower(let code, let revision, let presented, let language, let appearance):
            layout = presented
            var display = viewer.display
            display.appearance = appearance
            chrome = ChromeContext(
                language: language, app: app, layout: layout, currentPath: page.request.path,
                csrfToken: viewer.csrfToken, display: display, isFollowing: true)
            live = LiveStage(
                version: LiveVersion(revision: revision, generation: page.served.generation(at: appIndex)),
                role: .following(code: code))
            framing = .denied
        }
        let status = screen.status
        let context = StageContext(
            chrome: chrome, app: app, layout: layout, container: container, content: screen.content,
            notice: screen.notice, markup: page.served.markups[appIndex], live: live)
        // The stage's device frames show tab pages, so they may be framed by this origin; a
        // follow page is not among them and is framed by no one.
        guard page.request.headers[StageResponses.fragmentHeader] == "1" else {
            return StageResponses.page(
                renderedPages.page(.document, of: consume context), status: status, framing: framing)
        }
        var response = StageResponses.page(
            renderedPages.page(.fragment, of: consume context), status: status, framing: framing)
        response.headers[StageResponses.fragmentHeader] = "1"
        return response
    }

    /// The live part of a visitor's own screen of the app at `appIndex`.
    func liveStage(
        _ appIndex: Int, revision: UInt64, presentation: Presentation?, _ served: ServedApps, _ request: Request
    ) -> LiveStage {
        let version = LiveVersion(revision: revision, generation: served.generation(at: appIndex))
        guard let presentation, presentation.appID == served.apps[appIndex].id else {
            return LiveStage(version: version, role: .visitor)
        }
        let followers = liveStreams.count(on: LiveTopic.follower(presentation.code))
        let link = followLinks.link(presentation.appID, presentation.code, request: request)
        return LiveStage(version: version, role: .presenting(code: presentation.code, followers: followers, link: link))
    }

    /// Revokes a follow code in the store, and tells its followers on every instance.
    func endPresentation(_ code: String) throws(SessionStoreError) {
        try visitors.store.setAlias(code, to: nil, now: visitors.clock().timeIntervalSince1970)
        visitors.hub.publish(ChangeNotice(topic: LiveTopic.presentation(code), version: LiveTopic.gone))
    }

    /// Wraps a route so a failing session store answers 503 with a log line naming the problem
    /// (the visitor sees no file names).
    func guarded(_ handler: @escaping @Sendable (consuming Request, Parameters) throws -> Response) -> Router.Handler {
        { [log] request, parameters in
            let (method, path) = (request.method, request.path)
            do {
                return try handler(request, parameters)
            } catch let error as SessionStoreError {
                log("tabstage: session store failed on \(method.rawValue) \(path): \(error)")
                guard error.outcomeUnknown else {
                    return .statusPage(.serviceUnavailable, message: "sessions are unavailable; try again later")
                }
                return .statusPage(
                    .serviceUnavailable,
                    message: "sessions are unavailable, and your last change may or may not have been saved; "
                        + "reload the page in a moment to see")
            }
        }
    }
}
