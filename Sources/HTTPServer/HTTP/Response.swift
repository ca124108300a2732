/// One HTTP response as a value; the server adds `Content-Length` and `Date` itself.
public struct Response: Sendable, Equatable {
    // Changing any part drops the prepared form, so it can never answer something else.
    public var status: HTTPStatus { didSet { preparedForm = nil } }
    public var headers: HTTPHeaders { didSet { preparedForm = nil } }
    public var body: [UInt8] { didSet { preparedForm = nil } }
    /// libmicrohttpd's form of exactly this status, headers and body, built once by `prepared()`.
    var preparedForm: PreparedResponse?
    /// The body written later, while the connection stays open (see `stream(_:headers:)`).
    public private(set) var stream: ResponseStream?

    public init(status: HTTPStatus = .ok, headers: HTTPHeaders = HTTPHeaders(), body: [UInt8] = []) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// Equal status, headers and body; whether either side is prepared does not matter.
    public static func == (lhs: Response, rhs: Response) -> Bool {
        lhs.status == rhs.status && lhs.headers == rhs.headers && lhs.body == rhs.body
    }

    /// A 200 whose body is written into `stream` for as long as it stays open, with no length
    /// (chunked). The server may answer 503 instead when it holds as many streams as it allows.
    public static func stream(_ stream: ResponseStream, headers: HTTPHeaders) -> Response {
        var response = Response(status: .ok, headers: headers)
        response.stream = stream
        return response
    }

    public static func html(_ bytes: [UInt8], status: HTTPStatus = .ok) -> Response {
        Response(status: status, headers: ["Content-Type": "text/html; charset=utf-8"], body: bytes)
    }

    public static func html(_ text: String, status: HTTPStatus = .ok) -> Response {
        html(Array(text.utf8), status: status)
    }

    public static func text(_ text: String, status: HTTPStatus = .ok) -> Response {
        Response(status: status, headers: ["Content-Type": "text/plain; charset=utf-8"], body: Array(text.utf8))
    }

    /// `application/json` without a `charset`: JSON text is UTF-8 (RFC 8259, 8.1) and the media
    /// type defines no such parameter, so none is sent.
    public static func json(_ bytes: [UInt8], status: HTTPStatus = .ok) -> Response {
        Response(status: status, headers: ["Content-Type": "application/json"], body: bytes)
    }

    public static func json(_ text: String, status: HTTPStatus = .ok) -> Response {
        json(Array(text.utf8), status: status)
    }

    /// 303 See Other: after a form POST the browser follows with a GET (post/redirect/get).
    public static func redirect(to location: String, status: HTTPStatus = .seeOther) -> Response {
        Response(status: status, headers: ["Location": location], body: [])
    }

    /// A small HTML page naming the status, with an optional escaped explanation.
    public static func statusPage(_ status: HTTPStatus, message: String = "") -> Response {
        let title = escapeHTML(status.description)
        var page = "<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>\(title)</title></head>"
        page += "<body><h1>\(title)</h1>"
        if !message.isEmpty { page += "<p>\(escapeHTML(message))</p>" }
        page += "</body></html>\n"
        var response = html(page, status: status)
        // Error pages describe this request only; caching them would hide a fix.
        response.headers["Cache-Control"] = "no-store"
        // A bare page with nothing to load: the strictest policy fits it.
        response.headers["Content-Security-Policy"] =
            "default-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
        response.headers["Referrer-Policy"] = "same-origin"
        return response
    }

    /// Escapes `&`, `<`, `>`, `"` and `'` for the status pages the HTTP layer writes itself. The
    /// HTTP layer sits below the views and cannot depend on Views, whose `HTMLWriter` escapes every
    /// other page; the two are the only HTML escapers.
    static func escapeHTML(_ text: String) -> String {
        var escaped = ""
        for character in text {
            switch character {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            case "\"": escaped += "&quot;"
            case "'": escaped += "&#39;"
            default: escaped.append(character)
            }
        }
        return escaped
    }
}
