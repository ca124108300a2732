import HTTPServer
import HTTPTesting
import Testing

/// Starts a real server on a free loopback port, runs `body`, then stops it.
func withServer<Result>(
    _ router: Router, configure: (inout ServerConfiguration) -> Void = { _ in },
    _ body: (Server) throws -> Result
) throws -> Result {
    var configuration = ServerConfiguration(host: "127.0.0.1", port: 0)
    configuration.accessLog = nil
    configuration.threading = .threadPool(size: 2)
    configure(&configuration)
    let server = Server(configuration: configuration, router: router)
    try server.start()
    defer { server.stop() }
    return try body(server)
}

/// Routes shared by the tests: each echoes what the server decoded.
func echoRouter() -> Router {
    var router = Router()
    router.get("/") { _, _ in .html("<p>home</p>") }
    router.get("/icons/{name}/{file}") { _, parameters in
        .text("name=\(parameters["name"] ?? "-") file=\(parameters["file"] ?? "-")")
    }
    router.get("/query") { request, _ in
        .text(request.query.map { "\($0.name)=\($0.value)" }.joined(separator: ";"))
    }
    router.get("/path/{rest...}") { request, parameters in
        .text("path=\(request.path) rest=\(parameters["rest"] ?? "-")")
    }
    router.get("/cookies") { request, _ in
        .text(request.cookies.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: ";"))
    }
    router.post("/form") { request, _ in
        let form = try request.form()
        return .text(form.map { "\($0.name)=\($0.value)" }.joined(separator: ";"))
    }
    router.post("/echo") { request, _ in
        Response(status: .ok, headers: ["Content-Type": "application/octet-stream"], body: request.body)
    }
    router.get("/remote") { request, _ in .text(request.remoteAddress) }
    router.get("/header") { request, _ in .text(request.headers["x-Custom-Thing"] ?? "none") }
    router.get("/fail") { _, _ in
        struct Boom: Error {}
        throw Boom()
    }
    router.get("/teapot") { _, _ in throw HTTPError(418, "short and stout") }
    router.get("/set-cookie") { _, _ in
        var response = Response.text("set")
        try response.setCookie("session", "abc123")
        return response
    }
    return router
}

extension HTTPServer.Server {
    func client(keepAlive: Bool = false) -> HTTPTestClient {
        HTTPTestClient(port: port, keepAlive: keepAlive)
    }
}
