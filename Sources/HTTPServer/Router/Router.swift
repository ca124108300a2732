/// Maps method + path to a handler. Handlers are synchronous because libmicrohttpd's access
/// handler cannot await; they may throw an `HTTPResponseError` for a chosen status.
public struct Router: Sendable {
    public typealias Handler = @Sendable (consuming Request, Parameters) throws -> Response

    struct Route: Sendable {
        let method: HTTPMethod
        let pattern: RoutePattern
        let handler: Handler
    }

    private(set) var routes: [Route] = []
    /// The routes that can match a path, found from its segment count and first segment; built
    /// again as each route is added, so a request compares only those patterns.
    private var table = RouteTable(patterns: [])
    /// Answers a path that no route's pattern matches, whatever its method (nil: a plain 404).
    /// A path some route matches for other methods is a 405, never this.
    public var fallback: Handler?

    public init() {}

    /// Every route as `METHOD /pattern`, in the order they are tried (for docs that list them).
    public var routeList: [String] { routes.map { "\($0.method.rawValue) \($0.pattern.description)" } }

    /// Routes are tried in the order they were added; the first match wins.
    public mutating func add(_ method: HTTPMethod, _ pattern: String, _ handler: @escaping Handler) {
        routes.append(Route(method: method, pattern: RoutePattern(pattern), handler: handler))
        table = RouteTable(patterns: routes.map(\.pattern))
    }

    public mutating func get(_ pattern: String, _ handler: @escaping Handler) { add(.get, pattern, handler) }
    public mutating func post(_ pattern: String, _ handler: @escaping Handler) { add(.post, pattern, handler) }
    public mutating func put(_ pattern: String, _ handler: @escaping Handler) { add(.put, pattern, handler) }
    public mutating func delete(_ pattern: String, _ handler: @escaping Handler) { add(.delete, pattern, handler) }

    /// Answers any request: 405 with `Allow` for a path that routes match for other methods
    /// only, the fallback (else 404) when no pattern matches, HEAD through the GET handler (the
    /// server sends its headers without the body), an `HTTPResponseError`'s status page, or 500
    /// for any other error.
    public func respond(to request: consuming Request) -> Response {
        var allowed: [HTTPMethod] = []
        for index in table.candidates(for: request.pathSegments) {
            guard let parameters = routes[index].pattern.match(request.pathSegments) else { continue }
            let method = routes[index].method
            if method == request.method || (request.method == .head && method == .get) {
                return Self.run(routes[index].handler, request, parameters)
            }
            allowed.append(method)
            if method == .get { allowed.append(.head) }
        }
        guard !allowed.isEmpty else {
            guard let fallback else { return .statusPage(.notFound) }
            return Self.run(fallback, request, Parameters())
        }
        var response = Response.statusPage(.methodNotAllowed)
        let names = Set(allowed.map(\.rawValue)).sorted()
        response.headers["Allow"] = names.joined(separator: ", ")
        return response
    }

    static func run(_ handler: Handler, _ request: consuming Request, _ parameters: Parameters) -> Response {
        do {
            return try handler(request, parameters)
        } catch let error as any HTTPResponseError {
            return .statusPage(error.status, message: error.description)
        } catch {
            // The details stay on the server: an error's text may name files or internals.
            return .statusPage(.internalServerError)
        }
    }
}
