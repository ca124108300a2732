import Foundation
import HTTPServer
import Sessions
import TabModel
import Views

/// What a page request names and asks for, resolved once before the session is touched: the
/// served apps it reads throughout, the app and layout of its path, the settings it asks the
/// session to keep, and how it was made (a tap, a live page catching up, a fragment).
///
/// One object per request, which the visit, the handler and the renderer share: the request
/// it holds is never copied.
final class PageRequest {
    let request: Request
    let parameters: Parameters
    /// The apps as this request reads them: an app and its markup are of one version.
    let served: ServedApps
    /// The app the path names, by its place in `served` (never copied).
    let appIndex: Int?
    /// The layout the path names.
    let layout: Layout?
    let now: Date

    init(
        request: Request, parameters: Parameters, served: ServedApps, appIndex: Int?, layout: Layout?, now: Date
    ) {
        self.request = request
        self.parameters = parameters
        self.served = served
        self.appIndex = appIndex
        self.layout = layout
        self.now = now
    }

    /// The settings the request asks for; read once by `PageRoutes` for a visit.
    var settings: RequestedSettings { RequestedSettings(request, languages: languages) }

    /// The languages the page may be in: its app's, or TabStage's own on a page about no app.
    var languages: PageLanguages { appIndex.map { served.markups[$0].pageLanguages } ?? UILanguage.pageLanguages }

    /// The app the path names. Only routes of an app scope (`PageRoutes.Scope`) read it: the
    /// wrapper answered 404 before the handler when there is none.
    var app: AppDescription { served.apps[appIndex ?? 0] }

    /// A path parameter the route's pattern declares.
    func parameter(_ name: String) -> String { parameters[name] ?? "" }

    var query: QueryItems { request.query }

    /// A live page re-reading its state (see docs/live.md): it shows the state and changes
    /// nothing, not even the one-shot notice, which is the acting window's to show.
    var isLiveRefresh: Bool { request.headers[StageResponses.liveHeader] == "1" }

    /// Which entry path the script says a GET of a tab is: it marks bar clicks, More rows and
    /// back/forward; any other request is `.url` here (see `entrySource` for what the browser says).
    var selectionSource: SelectionSource {
        switch request.headers[StageResponses.sourceHeader] {
        case "tap": .tap
        case "more": .moreRow
        case "history": .history
        default: .url
        }
    }

    /// The entry path of a GET of a screen (a tab, the More list), docs/routes.md "Entry paths":
    /// the script's mark when it sent one. Without the script, the browser's Fetch Metadata tells
    /// a click from a typed, pasted or bookmarked URL (`Sec-Fetch-Site: none`): a click on a page
    /// of this app and layout (`Referer`) that opens something not on screen is a tap, or a row
    /// when it came from the More list. A click that opens what is on screen (Back, Cancel, the
    /// page a form post or a log-out redirects to, a tap on the selected tab) and one from the
    /// edit list (whose Done redirects) are URL entries, as is anything else.
    func entrySource(opensTheScreenShown: Bool) -> SelectionSource {
        if request.headers[StageResponses.sourceHeader] != nil { return selectionSource }
        guard !opensTheScreenShown, let from = clickedFrom, let layout else { return .url }
        let more = StageLinks.more(app.id, layout)
        if from == more { return .moreRow }
        return from.hasPrefix(more + "/") ? .url : .tap
    }

    /// The path of the page a link was clicked on, when the browser says this request is such a
    /// navigation (`Sec-Fetch-Site: same-origin`, `Sec-Fetch-User: ?1`, `Sec-Fetch-Mode: navigate`)
    /// from a page of this app and layout; nil otherwise.
    private var clickedFrom: String? {
        let headers = request.headers
        guard headers["Sec-Fetch-Site"] == "same-origin", headers["Sec-Fetch-User"] == "?1",
            headers["Sec-Fetch-Mode"] == "navigate", let layout, appIndex != nil,
            let referer = headers["Referer"].flatMap({ URLComponents(string: $0) })
        else { return nil }
        let path = referer.path
        return path.hasPrefix(StageLinks.layout(app.id, layout) + "/") ? path : nil
    }
}

/// The settings a request asks the visitor's session to keep for every page (`?lang=`,
/// `?appearance=`, `?frame=`), and what the browser says of itself, read once per request.
///
/// Its optionals are spelled `Optional<…>`, as `StageContext`'s are: a `T?` variable starts out
/// nil, and the initialiser then writes over an already whole value, which copies it.
// swift-format-ignore: UseShorthandTypeNames
struct RequestedSettings {
    /// The languages the page may be in (`PageRequest.languages`).
    let languages: PageLanguages
    /// A `?lang=` naming one of `languages`, spelled as they are.
    var language: Optional<String>
    /// A valid `?appearance=light|dark|auto`.
    var appearance: Optional<Appearance>
    /// `?frame=device` (true) or `?frame=none` (false).
    var showsDeviceFrames: Optional<Bool>
    /// The browser loads the page into a frame (`Sec-Fetch-Dest: iframe`: the stage's).
    var isEmbedded: Bool
    var acceptLanguage: Optional<String>

    init(_ request: borrowing Request, languages: PageLanguages) {
        self.languages = languages
        language = request.query["lang"].flatMap { PageLanguage.tag($0, among: languages.tags) }
        appearance = request.query["appearance"].flatMap { Appearance(name: $0) }
        showsDeviceFrames = request.query["frame"].flatMap(Self.framesShown(byQuery:))
        isEmbedded = request.headers["Sec-Fetch-Dest"] == "iframe"
        acceptLanguage = request.headers["Accept-Language"]
    }

    /// Whether the request has a setting for the session to keep.
    var changesSession: Bool { language != nil || appearance != nil || showsDeviceFrames != nil }

    /// `?frame=none` hides the device frames, `?frame=device` shows them again.
    static func framesShown(byQuery value: String) -> Bool? {
        switch value {
        case "none": false
        case "device": true
        default: nil
        }
    }

    /// Keeps the requested settings in `session`.
    func keep(in session: inout VisitorSession) {
        if let language { session.languageTag = language }
        if let appearance { session.appearanceName = appearance == .auto ? nil : appearance.rawValue }
        if let showsDeviceFrames { session.hidesDeviceFrames = showsDeviceFrames ? nil : true }
    }

    /// The page language: `?lang=`, else the session's when the page has it, else the best of
    /// the page's languages for the browser's (the first of them when it asks for none).
    func language(of session: VisitorSession) -> PageLanguage {
        languages.page(
            language ?? kept(session) ?? languages.negotiate(acceptLanguage: acceptLanguage))
    }

    /// The language `session` keeps (chosen on any page), when it is one of this page's.
    func kept(_ session: VisitorSession) -> String? {
        session.languageTag.flatMap { PageLanguage.tag($0, among: languages.tags) }
    }

    /// The display settings the session keeps (after `keep(in:)`, the requested ones).
    func display(of session: VisitorSession) -> DisplaySettings {
        DisplaySettings(
            appearance: session.appearanceName.flatMap { Appearance(name: $0) } ?? .auto,
            showsDeviceFrames: session.hidesDeviceFrames != true, isEmbedded: isEmbedded)
    }
}
