/// Why a request target was refused; the server answers 400.
public enum RequestTargetError: Error, Equatable, CustomStringConvertible {
    case notOriginForm(String)
    case invalidPath(PercentDecodingError)
    case invalidQuery(PercentDecodingError)
    case nulInPath
    case invalidCharacter(String)

    public var description: String {
        switch self {
        case .notOriginForm(let target): "the request target must start with '/': '\(target)'"
        case .invalidPath(let error): "bad path: \(error)"
        case .invalidQuery(let error): "bad query: \(error)"
        case .nulInPath: "the path contains a NUL byte"
        case .invalidCharacter(let target): "the request target contains a space or control character: '\(target)'"
        }
    }
}

/// One HTTP request, fully read: the handler sees values only, never the connection.
public struct Request: Sendable {
    public var method: HTTPMethod
    /// The target exactly as sent, e.g. `/a%20b?x=1`.
    public var target: String
    /// The path before `?`, still percent-encoded.
    public var rawPath: String
    /// The path's segments, each percent-decoded on its own (so a `%2F` stays inside its segment).
    public var pathSegments: [String]
    /// The decoded path: the segments joined by `/`.
    public var path: String
    public var query: QueryItems
    public var headers: HTTPHeaders
    public var body: [UInt8]
    /// The client's numeric IP address, or an empty string when unknown. From a trusted proxy
    /// (`ServerConfiguration.trustedProxies`), the address it forwards. Made text when read.
    public var remoteAddress: String {
        get { client.text }
        set { client = .text(newValue) }
    }
    /// The client's address as the server read it (`remoteAddress` is its text).
    var client: ClientAddress

    public init(
        method: HTTPMethod, target: String, headers: HTTPHeaders = HTTPHeaders(), body: [UInt8] = [],
        remoteAddress: String = ""
    ) throws(RequestTargetError) {
        try self.init(method: method, target: target, headers: headers, body: body, client: .text(remoteAddress))
    }

    /// A request whose client address may still be the socket's bytes (as `Server` builds them).
    init(
        method: HTTPMethod, target: String, headers: HTTPHeaders, body: [UInt8], client: ClientAddress
    ) throws(RequestTargetError) {
        // Parsed before any field is set, so a throw leaves no half-made request to destroy.
        let parsed = try ParsedTarget(target)
        self.method = method
        self.target = target
        rawPath = parsed.rawPath
        pathSegments = parsed.pathSegments
        path = parsed.path
        query = parsed.query
        self.headers = headers
        self.body = body
        self.client = client
    }
}

/// A request target taken apart into the fields `Request` keeps.
///
/// Targets are octets (RFC 3986): the target is read on a span of its UTF-8 bytes, split at
/// `#`, `?` and `/`, never walked by Character, and each path segment is percent-decoded on
/// its own.
struct ParsedTarget {
    var rawPath: String
    var pathSegments: [String]
    var path: String
    var query: QueryItems

    init(_ target: String) throws(RequestTargetError) {
        let bytes = target.utf8.span
        var fragmentStart = bytes.count
        var questionMark: Int?
        var slashes = 0
        for index in bytes.indices {
            let byte = bytes[index]
            guard byte > 0x20 && byte != 0x7F else { throw .invalidCharacter(target) }
            guard index < fragmentStart else { continue }
            switch byte {
            case UInt8(ascii: "#"): fragmentStart = index
            case UInt8(ascii: "?") where questionMark == nil: questionMark = index
            case UInt8(ascii: "/") where questionMark == nil: slashes += 1
            default: break
            }
        }
        let pathEnd = questionMark ?? fragmentStart
        guard pathEnd > 0, bytes[0] == UInt8(ascii: "/") else { throw .notOriginForm(target) }
        var segments: [String] = []
        segments.reserveCapacity(slashes)
        var segmentStart = 1
        var pathIsPlain = true
        while true {
            var segmentEnd = segmentStart
            while segmentEnd < pathEnd && bytes[segmentEnd] != UInt8(ascii: "/") { segmentEnd += 1 }
            let segment: String
            do {
                segment = try PercentDecoding.decode(bytes.extracting(segmentStart..<segmentEnd))
            } catch {
                throw .invalidPath(error)
            }
            if segment.utf8.count != segmentEnd - segmentStart {
                pathIsPlain = false
                guard !segment.utf8.contains(0) else { throw .nulInPath }
            }
            segments.append(segment)
            guard segmentEnd != pathEnd else { break }
            segmentStart = segmentEnd + 1
        }
        // A path that is the whole target is that String again, not a new one.
        rawPath = pathEnd == bytes.count ? target : String(target.part(atUTF8: 0..<pathEnd))
        // Without escapes the decoded path is the raw one: no need to join the segments again.
        path = pathIsPlain ? rawPath : "/" + segments.joined(separator: "/")
        pathSegments = segments
        query = QueryItems()
        if let questionMark {
            do {
                query = try QueryItems(parsing: target.part(atUTF8: questionMark + 1..<fragmentStart))
            } catch {
                throw .invalidQuery(error)
            }
        }
    }

}
