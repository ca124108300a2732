import Foundation
import HTTPServer
import Sessions
import TabModel
import Views

/// What a page handler answers. `PageRoutes` turns it into the response: it draws the header
/// strip, renders after the session is let go, sets the cookie and logs refusals.
enum PageAnswer {
    /// A screen of the app in its layout (a tab, a refused tab, the More or edit list, a detail),
    /// drawn from the container as the visit left it. The container travels beside the rest so
    /// that it is moved, never copied, into the page's context.
    case screen(TabContainer, Screen)
    /// Any other page in TabStage's look.
    case page(Page)
    /// 303 to a local path; `endingPresentation` revokes that follow code once the session is
    /// kept, and tells its followers on every instance.
    case redirect(String, endingPresentation: String? = nil)
    /// 303 to a local path, the visitor's session moved to `SessionID` (log-in, log-out).
    case moved(SessionID, to: String)
    /// The error page in the app's look.
    case refusal(Refusal)
    /// An answer in no page's look (JSON, plain text, an image, a stream).
    case response(Response)
}

/// What a screen of the app shows besides its container.
struct Screen {
    /// Who looks at it: the visitor on their own session, or a follower of a presentation (who
    /// is shown nothing of their own session but the language and appearance they chose, else
    /// the presenter's).
    enum Audience {
        case visitor
        case follower(
            code: String, presenterRevision: UInt64, layout: Layout, language: PageLanguage, appearance: Appearance)
    }

    var content: StageContent
    var status: HTTPStatus = .ok
    /// The one-shot notice shown above the page (`PageVisit.notice`, or none).
    var notice: Notice?
    var audience: Audience = .visitor
}

/// A page that is not a screen of the app. `render` runs after the session is let go, with the
/// header strip the wrapper made; it captures only what it shows.
struct Page {
    var status: HTTPStatus = .ok
    var framing: StageResponses.Framing = .denied
    /// The path log-in and log-out come back to, when it is not the page's own.
    var returnPath: String?
    var render: (ChromeContext) -> [UInt8]
}

/// A request refused with the error page in the app's look.
struct Refusal: Error {
    var status: HTTPStatus
    var message: UIString?
    /// What the server's log says of it (the visitor is shown `message` only).
    var logged: String?
    /// The methods the path takes, for a 405: answered plainly with `Allow`, as the router
    /// answers every other method a path does not take.
    var allowed: String?

    init(_ status: HTTPStatus, _ message: UIString? = nil, logged: String? = nil) {
        self.status = status
        self.message = message
        self.logged = logged
    }

    /// A path that takes only `allowed` (a form's endpoint asked with GET).
    static func methodNotAllowed(allowed: String) -> Refusal {
        var refusal = Refusal(.methodNotAllowed)
        refusal.allowed = allowed
        return refusal
    }

    static func notFound(_ message: UIString) -> Refusal { Refusal(.notFound, message) }

    /// A tab id the app does not have. The model logs its refusals in the visitor's event log,
    /// but a request that is refused leaves the session as it was: this one goes to the
    /// server's log.
    static func unknownTab(_ tabID: String) -> Refusal {
        Refusal(.notFound, .unknownTab(tabID), logged: "\(UnchangedReason.unknownTab(id: tabID))")
    }
}

/// What a page handler is given: the request context, and what the session says of the
/// visitor, resolved once by `PageRoutes` before the handler runs.
struct PageVisit {
    let page: PageRequest
    let language: PageLanguage
    let display: DisplaySettings
    /// The one-shot notice, taken from the session for routes that show one (a live refresh
    /// leaves it to the window that acted).
    let notice: Notice?

    var app: AppDescription { page.app }
    var layout: Layout { page.layout ?? .bottom }
    var now: Date { page.now }
}
