import Foundation
import HTTPTesting
import Sessions
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
