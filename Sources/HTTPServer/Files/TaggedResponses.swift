/// The two answers for a body that never changes under its entity tag, each prepared once (see
/// `Response.prepared()`): 200 with the body, and 304 for a request that already holds it.
/// Static files and rendered icons are answered this way.
///
/// A class: a lookup hands out one shared reference, not copies of both responses.
public final class TaggedResponses: Sendable {
    public let entityTag: String
    public let ok: Response
    public let notModified: Response

    /// `cacheControl` goes on both answers, as the tag does; `contentType` on the 200 only.
    public init(body: [UInt8], contentType: String, entityTag: String, cacheControl: String) {
        self.entityTag = entityTag
        let validators: HTTPHeaders = ["ETag": entityTag, "Cache-Control": cacheControl]
        notModified = Response(status: .notModified, headers: validators).prepared()
        var headers = validators
        headers["Content-Type"] = contentType
        ok = Response(status: .ok, headers: headers, body: body).prepared()
    }

    /// 304 when the request's `If-None-Match` names this tag, else 200.
    public func response(to request: Request) -> Response {
        guard let ifNoneMatch = request.headers["If-None-Match"], Self.matches(ifNoneMatch, entityTag) else {
            return ok
        }
        return notModified
    }

    /// RFC 9110's If-None-Match: a comma-separated list of tags, or `*` for any, compared
    /// weakly (`W/"x"` matches `"x"`).
    static func matches(_ ifNoneMatch: String, _ entityTag: String) -> Bool {
        for candidate in ifNoneMatch.split(separator: ",") {
            var tag = candidate.trimmingSpaces
            if tag == "*" { return true }
            if tag.hasPrefix("W/") { tag = tag.dropFirst(2) }
            if tag == entityTag { return true }
        }
        return false
    }
}
