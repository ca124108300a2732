/// Maps method + path to a handler. Handlers are synchronous because libmicrohttpd's access
/// handler cannot await; they may throw an `HTTPResponseError` for a chosen status.
public struct Router: Sendable {
    public typealias Handler = @Sendable (Request, Parameters) throws -> Response

    struct Route: Sendable {
        let method: HTTPMethod
        let pattern: RoutePattern
        let handler: Handler
    }

    private(set) var routes: [Route] = []

    public init() {}

    /// Routes are tried in the order they were added; the first match wins.
    public mutating func add(_ method: HTTPMethod, _ pattern: String, _ handler: @escaping Handler) {
        routes.append(Route(method: method, pattern: RoutePattern(pattern), handler: handler))
    }

    public mutating func get(_ pattern: String, _ handler: @escaping Handler) { add(.get, pattern, handler) }
    public mutating func post(_ pattern: String, _ handler: @escaping Handler) { add(.post, pattern, handler) }
    public mutating func put(_ pattern: String, _ handler: @escaping Handler) { add(.put, pattern, handler) }
    public mutating func delete(_ pattern: String, _ handler: @escaping Handler) { add(.delete, pattern, handler) }

    /// Answers any request: 404 when no pattern matches, 405 with `Allow` for a wrong method,
    /// HEAD through the GET handler (the server sends its headers without the body),
    /// an `HTTPResponseError`'s status page, or 500 for any other error.
    public func respond(to request: Request) -> Response {
        var allowed: [HTTPMethod] = []
        // The quick check inlined here, before the call (`match` repeats it for callers of its
        // own): calling `match` on each of the 14 routes before a tab page's cost ~2.8k
        // instructions more per page (callgrind).
        for route in routes where route.pattern.mayMatch(request.pathSegments) {
            guard let parameters = route.pattern.match(request.pathSegments) else { continue }
            if route.method == request.method || (request.method == .head && route.method == .get) {
                return Self.run(route.handler, request, parameters)
            }
            allowed.append(route.method)
            if route.method == .get { allowed.append(.head) }
        }
        guard !allowed.isEmpty else { return .statusPage(.notFound) }
        var response = Response.statusPage(.methodNotAllowed)
        let names = Set(allowed.map(\.rawValue)).sorted()
        response.headers["Allow"] = names.joined(separator: ", ")
        return response
    }

    static func run(_ handler: Handler, _ request: Request, _ parameters: Parameters) -> Response {
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
