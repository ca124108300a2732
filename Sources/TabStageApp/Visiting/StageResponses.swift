import HTTPServer
import Views

/// Headers every page shares, and the error pages in the app's look.
public enum StageResponses {
    public static let fragmentHeader = "X-TabStage-Fragment"
    /// Set by the script on bar clicks (`tap`), More rows (`more`) and back/forward (`history`);
    /// see docs/routes.md, "Entry paths".
    public static let sourceHeader = "X-TabStage-Source"
    /// Set by the script when a live page re-reads the state it shows (see docs/live.md).
    static let liveHeader = "X-TabStage-Live"

    /// Scripts, styles and images from this origin only; no inline code of any kind; no page
    /// of another site may frame ours.
    static let contentSecurityPolicy = policy(frames: nil, frameAncestors: "'none'")

    /// Who may show a page in a frame (docs/stage.md).
    enum Framing {
        /// No one (`frame-ancestors 'none'`, `X-Frame-Options: DENY`): most pages.
        case denied
        /// This origin only: the pages the stage shows in its device frames (tab pages, the
        /// More list, the log-in form a frame may lead to).
        case stageFrame
        /// The stage itself: framed by no one, it frames pages of this origin (`frame-src 'self'`).
        case stage
    }

    private static func policy(frames: String?, frameAncestors: String) -> String {
        "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; form-action 'self'; "
            + "connect-src 'self'; " + (frames.map { "frame-src \($0); " } ?? "")
            + "base-uri 'none'; frame-ancestors \(frameAncestors)"
    }

    private static let framedContentSecurityPolicy = policy(frames: nil, frameAncestors: "'self'")
    private static let stageContentSecurityPolicy = policy(frames: "'self'", frameAncestors: "'none'")

    /// A page that depends on the session: never stored by any cache (`no-store`), so it needs
    /// no `Vary` for the headers it depends on (cookie, language, fragment requests, whether it
    /// is loaded into a frame). Its fields are built and checked once (`HTTPHeaders.checked()`),
    /// not per page.
    static func page(_ bytes: [UInt8], status: HTTPStatus = .ok, framing: Framing = .denied) -> Response {
        let headers =
            switch framing {
            case .denied: pageHeaders
            case .stageFrame: framedPageHeaders
            case .stage: stagePageHeaders
            }
        return Response(status: status, headers: headers, body: bytes)
    }

    private static let pageHeaders = pageHeaders(framing: .denied)
    private static let framedPageHeaders = pageHeaders(framing: .stageFrame)
    private static let stagePageHeaders = pageHeaders(framing: .stage)

    private static func pageHeaders(framing: Framing) -> HTTPHeaders {
        var response = Response.html([UInt8]())
        secure(&response, framing: framing)
        response.headers["Cache-Control"] = "no-store"
        return response.headers.checked()
    }

    /// The fields that keep a page to this origin's scripts and out of other sites' frames (the
    /// server adds `X-Content-Type-Options` to every response).
    static func secure(_ response: inout Response, framing: Framing = .denied) {
        switch framing {
        case .denied:
            response.headers["Content-Security-Policy"] = contentSecurityPolicy
            response.headers["X-Frame-Options"] = "DENY"
        case .stageFrame:
            response.headers["Content-Security-Policy"] = framedContentSecurityPolicy
            response.headers["X-Frame-Options"] = "SAMEORIGIN"
        case .stage:
            response.headers["Content-Security-Policy"] = stageContentSecurityPolicy
            response.headers["X-Frame-Options"] = "DENY"
        }
        response.headers["Referrer-Policy"] = "same-origin"
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
