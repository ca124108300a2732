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
        self.method = method
        self.target = target
        self.headers = headers
        self.body = body
        self.remoteAddress = remoteAddress
        guard !target.utf8.contains(where: { $0 <= 0x20 || $0 == 0x7F }) else { throw .invalidCharacter(target) }
        let withoutFragment = target.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)[0]
        let parts = withoutFragment.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        let rawPath = parts[0]
        guard rawPath.hasPrefix("/") else { throw .notOriginForm(target) }
        self.rawPath = String(rawPath)
        var segments: [String] = []
        for rawSegment in rawPath.dropFirst().split(separator: "/", omittingEmptySubsequences: false) {
            let segment: String
            do {
                segment = try PercentDecoding.decode(rawSegment)
            } catch {
                throw .invalidPath(error)
            }
            guard !segment.utf8.contains(0) else { throw .nulInPath }
            segments.append(segment)
        }
        pathSegments = segments
        path = "/" + segments.joined(separator: "/")
        do {
            query = parts.count > 1 ? try QueryItems(parsing: parts[1]) : QueryItems()
        } catch {
            throw .invalidQuery(error)
        }
    }
}
