import HTTPServer
import Views

/// Headers every page shares, and the error pages in the app's look.
enum StageResponses {
    static let fragmentHeader = "X-TabStage-Fragment"
    /// Set by the script on bar clicks (`tap`) and back/forward (`history`); see README.
    static let sourceHeader = "X-TabStage-Source"
    /// Set by the script when a live page re-reads the state it shows (see docs/live.md).
    static let liveHeader = "X-TabStage-Live"

    /// Scripts, styles and images from this origin only; no inline code of any kind.
    static let contentSecurityPolicy =
        "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; form-action 'self'; "
        + "connect-src 'self'; base-uri 'none'; frame-ancestors 'none'"

    /// A page that depends on the session: never stored by any cache (`no-store`), so it needs
    /// no `Vary` for the headers it depends on (cookie, language, fragment requests). Its fields
    /// are built and checked once (`HTTPHeaders.checked()`), not per page.
    static func page(_ bytes: [UInt8], status: HTTPStatus = .ok) -> Response {
        Response(status: status, headers: pageHeaders, body: bytes)
    }

    private static let pageHeaders: HTTPHeaders = {
        var response = Response.html([UInt8]())
        secure(&response)
        response.headers["Cache-Control"] = "no-store"
        return response.headers.checked()
    }()

    /// The fields that keep a page to this origin's scripts and out of frames (the server adds
    /// `X-Content-Type-Options` to every response).
    static func secure(_ response: inout Response) {
        response.headers["Content-Security-Policy"] = contentSecurityPolicy
        response.headers["Referrer-Policy"] = "same-origin"
        response.headers["X-Frame-Options"] = "DENY"
    }

    static func redirect(to location: String) -> Response {
        var response = Response.redirect(to: location)
        response.headers["Cache-Control"] = "no-store"
        return response
    }

    static func error(_ status: HTTPStatus, _ message: UIString?, chrome: ChromeContext) -> Response {
        page(ErrorPage.document(status: status.rawValue, message: message, chrome: chrome), status: status)
    }
}
