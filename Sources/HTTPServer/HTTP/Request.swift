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
    /// The client's numeric IP address, or an empty string when unknown.
    public var remoteAddress: String

    public init(
        method: HTTPMethod, target: String, headers: HTTPHeaders = HTTPHeaders(), body: [UInt8] = [],
        remoteAddress: String = ""
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
        self.remoteAddress = remoteAddress
    }
}

/// A request target taken apart into the fields `Request` keeps.
struct ParsedTarget {
    var rawPath: String
    var pathSegments: [String]
    var path: String
    var query: QueryItems

    init(_ target: String) throws(RequestTargetError) {
        // Targets are octets (RFC 3986): split and decode on UTF-8 bytes, without Characters.
        var utf8Target = target
        let parsed = utf8Target.withUTF8 { bytes in
            Result { () throws(RequestTargetError) in try Self.parse(bytes, whole: target) }
        }
        switch parsed {
        case .success(let parts): self = parts
        case .failure(let error): throw error
        }
    }

    private init(rawPath: String, pathSegments: [String], path: String, query: QueryItems) {
        self.rawPath = rawPath
        self.pathSegments = pathSegments
        self.path = path
        self.query = query
    }

    /// `whole` is the String of `target`'s bytes: a path that is the whole target (no query) is
    /// that String again, not a new one.
    private static func parse(
        _ target: UnsafeBufferPointer<UInt8>, whole: String
    ) throws(RequestTargetError) -> ParsedTarget {
        let text = { String(decoding: target, as: UTF8.self) }
        guard !target.contains(where: { $0 <= 0x20 || $0 == 0x7F }) else { throw .invalidCharacter(text()) }
        let withoutFragment = target.firstIndex(of: UInt8(ascii: "#")).map { target[..<$0] } ?? target[...]
        let questionMark = withoutFragment.firstIndex(of: UInt8(ascii: "?"))
        let rawPath = UnsafeBufferPointer(rebasing: withoutFragment[..<(questionMark ?? withoutFragment.endIndex)])
        guard rawPath.first == UInt8(ascii: "/") else { throw .notOriginForm(text()) }
        var segments: [String] = []
        segments.reserveCapacity(rawPath.count { $0 == UInt8(ascii: "/") })
        var segmentStart = rawPath.startIndex + 1
        var pathIsPlain = true
        while true {
            let segmentEnd = rawPath[segmentStart...].firstIndex(of: UInt8(ascii: "/")) ?? rawPath.endIndex
            let segment: String
            do {
                segment = try PercentDecoding.decode(UnsafeBufferPointer(rebasing: rawPath[segmentStart..<segmentEnd]))
            } catch {
                throw .invalidPath(error)
            }
            if segment.utf8.count != segmentEnd - segmentStart {
                pathIsPlain = false
                guard !segment.utf8.contains(0) else { throw .nulInPath }
            }
            segments.append(segment)
            guard segmentEnd != rawPath.endIndex else { break }
            segmentStart = segmentEnd + 1
        }
        let rawPathText = rawPath.count == target.count ? whole : String(decoding: rawPath, as: UTF8.self)
        // Without escapes the decoded path is the raw one: no need to join the segments again.
        let path = pathIsPlain ? rawPathText : "/" + segments.joined(separator: "/")
        var query = QueryItems()
        if let questionMark {
            do {
                query = try QueryItems(
                    parsing: UnsafeBufferPointer(rebasing: withoutFragment[(questionMark + 1)...]))
            } catch {
                throw .invalidQuery(error)
            }
        }
        return ParsedTarget(rawPath: rawPathText, pathSegments: segments, path: path, query: query)
    }
}
