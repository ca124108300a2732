/// A response status code with its standard reason phrase.
public struct HTTPStatus: RawRepresentable, Hashable, Sendable, ExpressibleByIntegerLiteral, CustomStringConvertible {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }
    public init(integerLiteral value: Int) { self.rawValue = value }

    public static let ok: HTTPStatus = 200
    public static let created: HTTPStatus = 201
    public static let noContent: HTTPStatus = 204
    public static let movedPermanently: HTTPStatus = 301
    public static let found: HTTPStatus = 302
    public static let seeOther: HTTPStatus = 303
    public static let notModified: HTTPStatus = 304
    public static let badRequest: HTTPStatus = 400
    public static let forbidden: HTTPStatus = 403
    public static let notFound: HTTPStatus = 404
    public static let methodNotAllowed: HTTPStatus = 405
    public static let contentTooLarge: HTTPStatus = 413
    public static let uriTooLong: HTTPStatus = 414
    public static let unsupportedMediaType: HTTPStatus = 415
    public static let unprocessableContent: HTTPStatus = 422
    public static let requestHeaderFieldsTooLarge: HTTPStatus = 431
    public static let internalServerError: HTTPStatus = 500
    public static let serviceUnavailable: HTTPStatus = 503

    public var reasonPhrase: String {
        switch rawValue {
        case 200: "OK"
        case 201: "Created"
        case 204: "No Content"
        case 301: "Moved Permanently"
        case 302: "Found"
        case 303: "See Other"
        case 304: "Not Modified"
        case 400: "Bad Request"
        case 403: "Forbidden"
        case 404: "Not Found"
        case 405: "Method Not Allowed"
        case 413: "Content Too Large"
        case 414: "URI Too Long"
        case 415: "Unsupported Media Type"
        case 422: "Unprocessable Content"
        case 431: "Request Header Fields Too Large"
        case 500: "Internal Server Error"
        case 503: "Service Unavailable"
        default: "Status \(rawValue)"
        }
    }

    /// 1xx, 204 and 304 responses never carry a body.
    public var allowsBody: Bool { !(100..<200).contains(rawValue) && rawValue != 204 && rawValue != 304 }

    public var description: String { "\(rawValue) \(reasonPhrase)" }
}
