import Colour
import Foundation
import HTTPServer
import Rasterizer
import Sessions
import TabModel
import Views

extension StageApplication {
    // Steps every page and form shares.

    /// The language a valid `?lang=` asks for; the one place that reads the parameter.
    func chosenLanguage(_ request: Request) -> UILanguage? {
        request.query["lang"].flatMap { UILanguage(tag: $0) }
    }

    /// The page language: `?lang=` (kept in the session), else the session's, else the browser's.
    func language(_ request: Request, _ session: inout VisitorSession) -> UILanguage {
        if let chosen = chosenLanguage(request) {
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
    func changesLanguage(_ request: Request) -> Bool { chosenLanguage(request) != nil }

    /// `?lang=`, `?appearance=` or `?frame=`: the settings a session keeps for every page.
    func changesSettings(_ request: Request) -> Bool {
        changesLanguage(request) || changesDisplay(request)
    }

    /// The display settings: `?appearance=light|dark|auto` and `?frame=none|device` (kept in the
    /// session), else the session's.
    func display(_ request: Request, _ session: inout VisitorSession) -> DisplaySettings {
        if let chosen = request.query["appearance"].flatMap({ Appearance(name: $0) }) {
            session.appearanceName = chosen == .auto ? nil : chosen.rawValue
        }
        if let frame = request.query["frame"].flatMap({ Self.framesShown(byQuery: $0) }) {
            session.hidesDeviceFrames = frame ? nil : true
        }
        return keptDisplay(request, session)
    }

    /// The display settings of a request that changes none (see `keptLanguage`). A page the
    /// browser loads into a frame (`Sec-Fetch-Dest: iframe`: the stage's) is drawn embedded.
    func keptDisplay(_ request: Request, _ session: VisitorSession) -> DisplaySettings {
        DisplaySettings(
            appearance: session.appearanceName.flatMap { Appearance(name: $0) } ?? .auto,
            showsDeviceFrames: session.hidesDeviceFrames != true,
            isEmbedded: request.headers["Sec-Fetch-Dest"] == "iframe")
    }

    /// Only a valid `?appearance=` or `?frame=` changes the display settings.
    func changesDisplay(_ request: Request) -> Bool {
        request.query["appearance"].flatMap { Appearance(name: $0) } != nil
            || request.query["frame"].flatMap { Self.framesShown(byQuery: $0) } != nil
    }

    /// `?frame=none` hides the device frames, `?frame=device` shows them again.
    static func framesShown(byQuery value: String) -> Bool? {
        switch value {
        case "none": false
        case "device": true
        default: nil
        }
    }

    /// The header strip of a page, and the session the request made for it (only when `?lang=`,
    /// `?appearance=` or `?frame=` has a setting to keep).
    func chrome(
        _ request: Request, app: AppDescription? = nil, layout: Layout? = nil, path: String = StageLinks.home
    ) throws(SessionStoreError) -> Visit<ChromeContext> {
        try withVisitor(request, create: changesSettings(request)) { session in
            ChromeContext(
                language: language(request, &session), app: app, layout: layout, visitorName: session.visitorName,
                currentPath: path, csrfToken: session.csrfToken, display: display(request, &session))
        }
    }

    func errorPage(_ request: Request, _ status: HTTPStatus, _ message: UIString?, app: AppDescription? = nil)
        throws(SessionStoreError) -> Response
    {
        let chrome = try withVisitor(request, create: false) { session in
            ChromeContext(
                language: language(request, &session), app: app, visitorName: session.visitorName,
                csrfToken: session.csrfToken, display: keptDisplay(request, session))
        }
        return StageResponses.error(status, message, chrome: chrome.result)
    }

    /// The 404 for a tab id the app does not have. The refusal goes to the server's log (the
    /// model logs its refusals in the visitor's event log, but a request that is refused leaves
    /// the session as it was).
    func unknownTabPage(_ request: Request, _ tabID: String, app: AppDescription) throws(SessionStoreError)
        -> Response
    {
        log("tabstage: refused \(request.method.rawValue) \(request.path): \(UnchangedReason.unknownTab(id: tabID))")
        return try errorPage(request, .notFound, .unknownTab(tabID), app: app)
    }

    /// A cross-site form post is refused even before the SameSite cookie would stop it: the
    /// `Origin` a browser sends with a post must be this host's. Only `checkedPost` asks.
    func isSameOrigin(_ request: Request) -> Bool {
        guard let origin = request.headers["Origin"] else { return true }
        guard let host = request.headers["Host"] else { return false }
        return origin == "http://\(host)" || origin == "https://\(host)"
    }

    /// An app, by its place in the served apps, and a layout, with the snapshot of the apps
    /// the request reads throughout (see `ServedApps`).
    struct Located {
        var served: ServedApps
        var appIndex: Int
        var layout: Layout
    }

    /// The app and layout a path names. A wrong one throws `Answered` with the error page saying
    /// which (`guarded` answers with it, so only guarded routes call this). The app is named by
    /// its index in the request's snapshot of the apps, never copied.
    func locate(_ request: Request, _ parameters: Parameters) throws -> Located {
        let served = shelf.current
        let appID = try parameters.require("app")
        guard let appIndex = served.index(ofApp: appID) else {
            throw Answered(response: try errorPage(request, .notFound, .unknownApp(appID)))
        }
        let layoutName = try parameters.require("layout")
        guard let layout = Layout(rawValue: layoutName) else {
            throw Answered(
                response: try errorPage(request, .badRequest, .unknownLayout(layoutName), app: served.apps[appIndex]))
        }
        return Located(served: served, appIndex: appIndex, layout: layout)
    }

    /// Whether `container` was made for the served version of `app` (the same storage, so this
    /// is quick unless the app was replaced).
    static func isCurrent(_ container: TabContainer, for app: AppDescription) -> Bool { container.app == app }

    /// The visitor's container of `app`, on the served version of the app: made from it when the
    /// visitor has none, or the stored one moved onto it by UIKit's replacement rules when the
    /// app was replaced since it was stored (`tabsReplaced` in its log). `isChanged` says the
    /// session must keep the result. The one place a visitor's container follows a replaced app.
    func currentContainer(_ session: VisitorSession, of app: AppDescription, at time: Date) -> (
        container: TabContainer, isChanged: Bool
    ) {
        guard var container = session.containers[app.id] else { return (TabContainer(app: app), true) }
        if Self.isCurrent(container, for: app) { return (container, false) }
        container.replaceTabs(with: app, isLoggedIn: session.isLoggedIn, at: time)
        return (container, true)
    }

    /// `currentContainer` kept in the session, then `body` run on it.
    func withCurrentContainer<Result>(
        _ session: inout VisitorSession, of app: AppDescription, at time: Date, _ body: (inout TabContainer) -> Result
    ) -> Result {
        var (container, _) = currentContainer(session, of: app, at: time)
        let result = body(&container)
        session.containers[app.id] = container
        return result
    }

    /// A request of a live page catching up (see docs/live.md): it shows the state and changes
    /// nothing, not even the one-shot notice, which is the acting window's to show.
    func isLiveRefresh(_ request: Request) -> Bool { request.headers[StageResponses.liveHeader] == "1" }
    /// The colour `?tint=RRGGBB` asks for (the default tint without one); a malformed one
    /// throws `Answered` with a 400 page.
    func requestedTint(_ request: Request) throws -> RGBColor {
        guard let text = request.query["tint"] else { return .defaultTint }
        guard let tint = RGBColor(hex: text) else { throw Answered(response: try errorPage(request, .badRequest, nil)) }
        return tint
    }
}
