import Foundation
import HTTPServer
import Sessions
import TabModel
import Views

extension StageApplication {
    // Steps every page and form shares.

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

    func chrome(
        _ request: Request, app: AppDescription? = nil, layout: Layout? = nil, path: String = StageLinks.home
    ) throws(SessionStoreError) -> (ChromeContext, SessionID?) {
        let (chrome, newID) = try withVisitor(request, create: changesSettings(request)) { session in
            ChromeContext(
                language: language(request, &session), app: app, layout: layout, visitorName: session.visitorName,
                currentPath: path, csrfToken: session.csrfToken, display: display(request, &session))
        }
        return (chrome, newID)
    }

    func errorPage(_ request: Request, _ status: HTTPStatus, _ message: UIString?, app: AppDescription? = nil)
        throws(SessionStoreError) -> Response
    {
        let (chrome, _) = try withVisitor(request, create: false) { session in
            ChromeContext(
                language: language(request, &session), app: app, visitorName: session.visitorName,
                csrfToken: session.csrfToken, display: keptDisplay(request, session))
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
}
