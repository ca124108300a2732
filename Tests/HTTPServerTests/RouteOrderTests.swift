import Testing

@testable import HTTPServer

/// The router compares only the patterns its table lists for a path's segment count and first
/// segment (`RouteTable`); these check the table misses none and that routing keeps its rules:
/// order, 404, 405 with `Allow`, HEAD through GET, remainders, the fallback.
@Suite struct RouteOrderTests {
    static let patterns = [
        "/", "/a", "/a/b", "/a/{x}", "/{x}", "/{x}/b", "/{x}/{y}/{z}", "/a/{rest...}", "/{rest...}",
        "/m/{rest...}/ignored", "/icons/{name}/{file}", "/a/b/c/d",
    ]
    static let paths = [
        "/", "/a", "/a/", "/a/b", "/b/a", "/a/b/c", "/a/b/c/d", "/a/b/c/d/e", "/m", "/m/x", "/m/x/ignored",
        "/icons/x/y.png", "//", "/a//b", "/%61/b",
    ]

    @Test func theTableListsEveryPatternThatMatchesInOrder() throws {
        let patterns = Self.patterns.map(RoutePattern.init)
        let table = RouteTable(patterns: patterns)
        for path in Self.paths {
            let segments = try Request(method: .get, target: path).pathSegments
            let matching = patterns.indices.filter { patterns[$0].match(segments) != nil }
            let listed = table.candidates(for: segments).filter { patterns[$0].match(segments) != nil }
            #expect(listed == matching, "\(path)")
        }
    }

    static func router() -> Router {
        var router = Router()
        router.get("/") { _, _ in .text("root") }
        router.get("/a/{x}") { _, parameters in .text("a x=\(parameters["x"] ?? "-")") }
        router.get("/a/b") { _, _ in .text("a-b, shadowed by /a/{x}") }
        router.post("/{x}/b") { _, _ in .text("post x/b") }
        router.put("/{x}/{rest...}") { _, _ in .text("put rest") }
        router.get("/m/{rest...}/ignored") { _, parameters in .text("m rest=\(parameters["rest"] ?? "-")") }
        return router
    }

    func respond(_ method: HTTPMethod, _ target: String) throws -> Response {
        try Self.router().respond(to: Request(method: method, target: target))
    }

    @Test func theFirstMatchInOrderWins() throws {
        #expect(try respond(.get, "/").body == Array("root".utf8))
        #expect(try respond(.get, "/a/b").body == Array("a x=b".utf8))
        #expect(try respond(.get, "/%61/b").body == Array("a x=b".utf8))
        #expect(try respond(.post, "/a/b").body == Array("post x/b".utf8))
        #expect(try respond(.put, "/a/b").body == Array("put rest".utf8))
        #expect(try respond(.get, "/m/x").body == Array("m rest=x".utf8))
        #expect(try respond(.get, "/m/x/y/z").body == Array("m rest=x/y/z".utf8))
    }

    @Test func headRunsTheGetHandler() throws {
        let head = try respond(.head, "/a/b")
        #expect(head.status == .ok)
        #expect(head.body == Array("a x=b".utf8))
    }

    @Test func noMatchIs404() throws {
        #expect(try respond(.get, "/a").status == .notFound)
        #expect(try respond(.get, "/nothing").status == .notFound)
        #expect(try respond(.post, "/").status != .notFound)
        #expect(try respond(.get, "/m").status == .notFound)
    }

    @Test func theFallbackAnswersOnlyPathsNoPatternMatches() throws {
        var router = Self.router()
        router.fallback = { request, _ in .text("fallback \(request.method.rawValue)") }
        #expect(try router.respond(to: Request(method: .get, target: "/nothing")).body == Array("fallback GET".utf8))
        #expect(try router.respond(to: Request(method: .put, target: "/")).status == .methodNotAllowed)
        #expect(try router.respond(to: Request(method: .get, target: "/a/b")).body == Array("a x=b".utf8))
    }

    @Test func wrongMethodIs405WithEveryMatchingMethod() throws {
        let delete = try respond(.delete, "/a/b")
        #expect(delete.status == .methodNotAllowed)
        #expect(delete.headers["Allow"] == "GET, HEAD, POST, PUT")
        let get = try respond(.get, "/z/b")
        #expect(get.status == .methodNotAllowed)
        #expect(get.headers["Allow"] == "POST, PUT")
        let deep = try respond(.get, "/x/y/z/w")
        #expect(deep.headers["Allow"] == "PUT")
        let root = try respond(.post, "/")
        #expect(root.status == .methodNotAllowed)
        #expect(root.headers["Allow"] == "GET, HEAD")
    }
}
