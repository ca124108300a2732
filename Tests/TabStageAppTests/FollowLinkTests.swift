import Foundation
import HTTPTesting
import QRCode
import Sessions
import Synchronization
import Testing

@testable import TabStageApp
@testable import TabStageCLI

/// The link a presenter hands over (docs/live.md, "Present and follow"): absolute, with a copy
/// button and a QR code, under `serve --public-url` when given.
@Suite struct FollowLinkTests {
    func presentedPage(_ stage: StageServer) throws -> TestResponse {
        let presenter = stage.visitor()
        _ = try presenter.get("/restaurant/bottom/home")
        _ = try presenter.post("/restaurant/present", form: [("layout", "bottom")])
        return try presenter.get("/restaurant/bottom/home")
    }

    @Test func theLinkIsAbsoluteUnderTheHostThePresenterAsked() throws {
        let stage = try StageServer()
        let page = try presentedPage(stage)
        let link = try followLink(in: page)
        let prefix = "http://127.0.0.1:\(stage.server.port)/restaurant/follow/"
        #expect(link.hasPrefix(prefix), "\(link)")
        #expect(link.count == prefix.count + 32)
        #expect(page.text.contains(">\(link)</a>"))
        #expect(page.text.contains("data-copy=\"\(link)\""))
        #expect(page.text.contains("<svg class=\"follow-qr\""))
    }

    /// A binary that finds no libqrencode (neither the tarball's lib/ nor the system's) still
    /// hands the link over: the link and its copy button stay, only the code is left out.
    @Test func withoutLibqrencodeTheLinkAndItsCopyButtonStay() throws {
        let stage = try StageServer(application: .deterministic(qrCodes: { nil }))
        let page = try presentedPage(stage)
        let link = try followLink(in: page)
        #expect(link.hasPrefix("http://127.0.0.1:\(stage.server.port)/restaurant/follow/"), "\(link)")
        #expect(page.text.contains(">\(link)</a>"))
        #expect(page.text.contains("data-copy=\"\(link)\""))
        #expect(!page.text.contains("follow-qr"))
    }

    /// A presenter's pages each show the link: its QR code is encoded once, not per page.
    @Test func theLinksQRCodeIsEncodedOncePerLink() throws {
        let asked = Mutex(0)
        let stage = try StageServer(
            application: .deterministic(qrCodes: {
                asked.withLock { $0 += 1 }
                return QRCodeLibrary.shared.library
            }))
        let presenter = stage.visitor()
        _ = try presenter.get("/restaurant/bottom/home")
        _ = try presenter.post("/restaurant/present", form: [("layout", "bottom")])
        let pages = try ["/restaurant/bottom/home", "/restaurant/bottom/wallet", "/restaurant/vertical/news"].map {
            try presenter.get($0)
        }
        let links = try pages.map { try followLink(in: $0) }
        #expect(Set(links).count == 1)
        #expect(asked.withLock { $0 } == 1, "encoded for the first page only")
        #expect(
            pages.allSatisfy { $0.text.contains("<svg class=\"follow-qr\"") } || QRCodeLibrary.shared.library == nil)
    }

    @Test func aHostThatIsNoHostNameIsNotRepeated() {
        #expect(FollowLinks.isPlainHost("192.168.1.20:8080"))
        #expect(FollowLinks.isPlainHost("[::1]:8080"))
        #expect(FollowLinks.isPlainHost("demo.example.org"))
        #expect(!FollowLinks.isPlainHost("evil\"><b>"))
        #expect(!FollowLinks.isPlainHost("a/b"))
        #expect(!FollowLinks.isPlainHost(""))
    }

    @Test func publicURLIsWhereTheLinkStarts() throws {
        let stage = try StageServer(application: .deterministic(publicURL: "https://demo.example.org/stage"))
        let link = try followLink(in: try presentedPage(stage))
        #expect(link.hasPrefix("https://demo.example.org/stage/restaurant/follow/"), "\(link)")
    }

    @Test func publicURLIsCheckedAtStart() throws {
        #expect(FollowLinks.publicURL("https://demo.example.org/") == "https://demo.example.org")
        #expect(FollowLinks.publicURL("http://10.0.0.5:8080") == "http://10.0.0.5:8080")
        #expect(FollowLinks.publicURL("demo.example.org") == nil)
        #expect(FollowLinks.publicURL("ftp://demo.example.org") == nil)
        #expect(FollowLinks.publicURL("https://demo.example.org/?a=1") == nil)
        #expect(FollowLinks.publicURL("https://") == nil)
        #expect(FollowLinks.publicURL("https://a b") == nil)
    }

    @Test func serveRefusesAPublicURLThatIsNotOne() {
        let result = runCLI(["serve", "--port", "0", "--sessions", "memory", "--public-url", "demo.example.org"])
        #expect(result.code == 2)
        #expect(result.err.contains("--public-url"))
    }

    @Test func wildcardHostsNameTheMachinesAddresses() {
        let all = ReachableAddresses.forWildcard("::")
        #expect(all.contains("127.0.0.1"))
        #expect(all.last == "127.0.0.1" || all.last == "[::1]")
        #expect(ReachableAddresses.forWildcard("0.0.0.0").allSatisfy { !$0.contains(":") })
        #expect(ReachableAddresses.forWildcard("127.0.0.1").isEmpty)
    }
}
