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
    var settings: RequestedSettings { RequestedSettings(request) }

    /// The app the path names. Only routes of an app scope (`PageRoutes.Scope`) read it: the
    /// wrapper answered 404 before the handler when there is none.
    var app: AppDescription { served.apps[appIndex ?? 0] }

    /// A path parameter the route's pattern declares.
    func parameter(_ name: String) -> String { parameters[name] ?? "" }

    var query: QueryItems { request.query }

    /// A live page re-reading its state (see docs/live.md): it shows the state and changes
    /// nothing, not even the one-shot notice, which is the acting window's to show.
    var isLiveRefresh: Bool { request.headers[StageResponses.liveHeader] == "1" }

    /// Which entry path a GET of a tab is: the script marks bar clicks and back/forward; a
    /// typed, shared or reloaded URL (and any request without the script) is `.url`.
    var selectionSource: SelectionSource {
        switch request.headers[StageResponses.sourceHeader] {
        case "tap": .tap
        case "history": .history
        default: .url
        }
    }
}

/// The settings a request asks the visitor's session to keep for every page (`?lang=`,
/// `?appearance=`, `?frame=`), and what the browser says of itself, read once per request.
struct RequestedSettings {
    /// A valid `?lang=`.
    var language: UILanguage?
    /// A valid `?appearance=light|dark|auto`.
    var appearance: Appearance?
    /// `?frame=device` (true) or `?frame=none` (false).
    var showsDeviceFrames: Bool?
    /// The browser loads the page into a frame (`Sec-Fetch-Dest: iframe`: the stage's).
    var isEmbedded: Bool
    var acceptLanguage: String?

    init(_ request: borrowing Request) {
        language = request.query["lang"].flatMap { UILanguage(tag: $0) }
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
        if let language { session.languageTag = language.tag }
        if let appearance { session.appearanceName = appearance == .auto ? nil : appearance.rawValue }
        if let showsDeviceFrames { session.hidesDeviceFrames = showsDeviceFrames ? nil : true }
    }

    /// The page language: `?lang=`, else the session's, else the browser's.
    func language(of session: VisitorSession) -> UILanguage {
        if let language { return language }
        if let kept = session.languageTag.flatMap({ UILanguage(tag: $0) }) { return kept }
        return UILanguage.negotiate(acceptLanguage: acceptLanguage)
    }

    /// The display settings the session keeps (after `keep(in:)`, the requested ones).
    func display(of session: VisitorSession) -> DisplaySettings {
        DisplaySettings(
            appearance: session.appearanceName.flatMap { Appearance(name: $0) } ?? .auto,
            showsDeviceFrames: session.hidesDeviceFrames != true, isEmbedded: isEmbedded)
    }
}
