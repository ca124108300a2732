import Foundation
import HTTPServer
import HTTPTesting
import Sessions
import TabModel
import Views

@testable import Snapshots
@testable import TabStageApp
@testable import TabStageCLI

/// An in-process deterministic server on a free port, and a browser-like visitor for it that
/// carries its session cookie by hand.
final class StageServer {
    static let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    let server: Server
    let application: StageApplication

    init(application: StageApplication = .deterministic()) throws {
        self.application = application
        let files = try StaticFiles(root: Self.repositoryRoot.appendingPathComponent("Public").path)
        var configuration = ServerConfiguration(host: "127.0.0.1", port: 0)
        configuration.accessLog = nil
        configuration.threading = .threadPool(size: 2)
        server = Server(
            configuration: configuration, router: Routes.makeRouter(staticFiles: files, application: application))
        try server.start()
    }

    deinit { server.stop() }

    func visitor(language: String? = nil) -> Visitor { Visitor(server: self, language: language) }
}

/// One browser: its cookie, its language header.
final class Visitor {
    /// Held so the server lives as long as a visitor of it.
    let stage: StageServer
    let client: HTTPTestClient
    var cookie: String?
    /// The CSRF token of the last page with a form, sent with every post as a browser would.
    var csrfToken: String?
    let language: String?

    init(server: StageServer, language: String?) {
        stage = server
        client = HTTPTestClient(port: server.server.port)
        self.language = language
    }

    func get(_ path: String, headers extra: [(String, String)] = []) throws -> TestResponse {
        try keep(send("GET", path, headers: headers(extra), body: []))
    }

    /// Posts `form` with the visitor's CSRF token added, unless `withToken` is false or the form
    /// names its own `csrf`.
    func post(
        _ path: String, form: [(String, String)], headers extra: [(String, String)] = [], withToken: Bool = true
    ) throws -> TestResponse {
        var form = form
        if withToken, let csrfToken, !form.contains(where: { $0.0 == CSRFField.name }) {
            form.append((CSRFField.name, csrfToken))
        }
        let body = form.map { PercentDecoding.encode($0.0) + "=" + PercentDecoding.encode($0.1) }
            .joined(separator: "&")
        var all = headers(extra)
        all.append(("Content-Type", "application/x-www-form-urlencoded"))
        return try keep(send("POST", path, headers: all, body: Array(body.utf8)))
    }

    private func send(_ method: String, _ path: String, headers: [(String, String)], body: [UInt8]) throws
        -> TestResponse
    {
        var head = "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(client.port)\r\nConnection: close\r\n"
        for (name, value) in headers { head += "\(name): \(value)\r\n" }
        if method == "POST" { head += "Content-Length: \(body.count)\r\n" }
        return try client.send(raw: Array((head + "\r\n").utf8) + body)
    }

    private func headers(_ extra: [(String, String)]) -> [(String, String)] {
        var headers: [(String, String)] = []
        if let cookie { headers.append(("Cookie", cookie)) }
        if let language { headers.append(("Accept-Language", language)) }
        return headers + extra
    }

    /// Keeps a new session cookie, as a browser would.
    private func keep(_ response: TestResponse) -> TestResponse {
        if let setCookie = response.header("Set-Cookie"), let pair = setCookie.split(separator: ";").first {
            cookie = String(pair)
        }
        if let token = FormToken.csrfToken(in: response.body) { csrfToken = token }
        return response
    }
}
