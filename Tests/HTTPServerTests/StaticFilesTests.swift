import Foundation
import HTTPServer
import HTTPTesting
import Testing

/// A temporary public folder with a secret file beside it and a symlink pointing out of it.
struct PublicFolder: ~Copyable {
    let base: String
    var root: String { base + "/public" }
    let css = Array("body { color: #123456; }\n".utf8)
    let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 1, 2, 3]
    static let secret = "TOP-SECRET-OUTSIDE-ROOT"

    init() throws {
        base = NSTemporaryDirectory() + "tabstage-static-" + UUID().uuidString
        let files = FileManager.default
        try files.createDirectory(atPath: base + "/public/css", withIntermediateDirectories: true)
        try files.createDirectory(atPath: base + "/public/img", withIntermediateDirectories: true)
        try Data(css).write(to: URL(fileURLWithPath: root + "/css/site.css"))
        try Data(png).write(to: URL(fileURLWithPath: root + "/img/tab.png"))
        try Data("<h1>hi</h1>".utf8).write(to: URL(fileURLWithPath: root + "/index.html"))
        try Data("hidden".utf8).write(to: URL(fileURLWithPath: root + "/.env"))
        try Data(Self.secret.utf8).write(to: URL(fileURLWithPath: base + "/secret.txt"))
        try files.createSymbolicLink(atPath: root + "/outside.txt", withDestinationPath: base + "/secret.txt")
        try files.createSymbolicLink(atPath: root + "/outside-dir", withDestinationPath: base)
        try files.createSymbolicLink(atPath: root + "/alias.css", withDestinationPath: root + "/css/site.css")
    }

    deinit { try? FileManager.default.removeItem(atPath: base) }
}

@Suite struct StaticFilesTests {
    func withStaticServer(_ body: (Server, borrowing PublicFolder) throws -> Void) throws {
        let folder = try PublicFolder()
        var router = Router()
        router.staticFiles(try StaticFiles(root: folder.root), at: "/static")
        try withServer(router) { server in try body(server, folder) }
    }

    @Test func servesFilesWithTypeETagAndCacheControl() throws {
        try withStaticServer { (server: Server, folder: borrowing PublicFolder) throws in
            let client = server.client()
            let css = try client.get("/static/css/site.css")
            #expect(css.status == 200)
            #expect(css.body == folder.css)
            #expect(css.header("Content-Type") == "text/css; charset=utf-8")
            #expect(css.header("Cache-Control") == "max-age=3600")
            let png = try client.get("/static/img/tab.png")
            #expect(png.body == folder.png)
            #expect(png.header("Content-Type") == "image/png")
            #expect(try client.get("/static/index.html").header("Content-Type") == "text/html; charset=utf-8")
            let alias = try client.get("/static/alias.css")
            #expect(alias.body == folder.css)
            let etag = try #require(css.header("ETag"))
            #expect(etag.hasPrefix("\"") && etag.hasSuffix("\""))
            #expect(png.header("ETag") != etag)
        }
    }

    @Test func matchingIfNoneMatchGives304() throws {
        try withStaticServer { (server: Server, _: borrowing PublicFolder) throws in
            let client = server.client()
            let first = try client.get("/static/css/site.css")
            let etag = try #require(first.header("ETag"))
            let again = try client.get("/static/css/site.css", headers: ["If-None-Match": "\"other\", W/\(etag)"])
            #expect(again.status == 304)
            #expect(again.body.isEmpty)
            #expect(again.header("ETag") == etag)
            let stale = try client.get("/static/css/site.css", headers: ["If-None-Match": "\"stale\""])
            #expect(stale.status == 200)
        }
    }

    @Test(arguments: [
        "/static/../secret.txt", "/static/%2e%2e/secret.txt", "/static/%2E%2E%2Fsecret.txt",
        "/static/css/..%2F..%2Fsecret.txt", "/static/css/../../secret.txt", "/static/..%5csecret.txt",
        "/static/css%2fsite.css", "/static/css\\site.css", "/static//etc/passwd", "/static/%2Fetc%2Fpasswd",
        "/static/outside.txt", "/static/outside-dir/secret.txt", "/static/.env", "/static/css/site.css%00.png",
        "/static/./css/site.css", "/static/", "/static",
    ])
    func everyWayOutOfTheFolderIsRefused(target: String) throws {
        try withStaticServer { (server: Server, _: borrowing PublicFolder) throws in
            let response = try server.client().get(target)
            #expect(response.status == 400 || response.status == 404, "\(target) gave \(response.status)")
            #expect(!response.text.contains(PublicFolder.secret))
            #expect(!response.text.contains("hidden"))
        }
    }

    @Test func targetsThatAreNotPathsAreRefused() throws {
        try withStaticServer { (server: Server, _: borrowing PublicFolder) throws in
            let raw = try server.client().send(
                raw: "GET ../secret.txt HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
            #expect(raw.status == 400)
            #expect(!raw.text.contains(PublicFolder.secret))
        }
    }

    @Test func missingRootIsAClearError() {
        #expect(throws: StaticFilesError.notADirectory("/no/such/folder")) {
            try StaticFiles(root: "/no/such/folder")
        }
    }

    @Test func contentTypesCoverTheServedKinds() {
        #expect(ContentTypes.forFileName("app.js") == "text/javascript; charset=utf-8")
        #expect(ContentTypes.forFileName("icon.SVG") == "image/svg+xml")
        #expect(ContentTypes.forFileName("favicon.ico") == "image/x-icon")
        #expect(ContentTypes.forFileName("data.json") == "application/json")
        #expect(ContentTypes.forFileName("notes.txt") == "text/plain; charset=utf-8")
        #expect(ContentTypes.forFileName("font.woff2") == "font/woff2")
        #expect(ContentTypes.forFileName("README") == "application/octet-stream")
    }
}
