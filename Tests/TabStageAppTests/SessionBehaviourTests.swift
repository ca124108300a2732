import Foundation
import HTTPTesting
import Sessions
import Synchronization
import TabModel
import Testing

@testable import Snapshots
@testable import TabStageApp
@testable import TabStageCLI

@Suite struct SessionBehaviourTests {
    @Test func theSessionCookieIsHttpOnlyLaxAndSiteWide() throws {
        let visitor = try StageServer().visitor()
        #expect(try visitor.get("/").header("Set-Cookie") == nil, "the app list changes nothing")
        let first = try visitor.get("/restaurant/bottom/home")
        let cookie = try #require(first.header("Set-Cookie"))
        let parts = cookie.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
        #expect(parts[0].hasPrefix("tabstage_session="))
        #expect(parts[0].count == "tabstage_session=".count + 32)
        #expect(Set(parts.dropFirst()) == ["Path=/", "HttpOnly", "SameSite=Lax"])
        #expect(try visitor.get("/restaurant/bottom/wallet").header("Set-Cookie") == nil, "the session is reused")
    }

    @Test(arguments: ["nonsense", "ABCDEF0123456789ABCDEF0123456789", "00000000000000000000000000000001"])
    func anUnknownOrMalformedCookieStartsANewSession(offered: String) throws {
        let visitor = try StageServer().visitor()
        visitor.cookie = "tabstage_session=\(offered)"
        let response = try visitor.get("/restaurant/bottom/wallet")
        let cookie = try #require(response.header("Set-Cookie"))
        #expect(!cookie.contains(offered))
        #expect(response.status == 200)
    }

    @Test func languageFollowsTheBrowserUntilChosen() throws {
        let visitor = try StageServer().visitor(language: "zh-HK,en;q=0.5")
        #expect(try visitor.get("/restaurant/bottom/home").text.contains("<html lang=\"zh-Hant\">"))
        #expect(try visitor.get("/restaurant/bottom/home?lang=en").text.contains("<html lang=\"en\">"))
        #expect(try visitor.get("/restaurant/bottom/wallet").text.contains("<html lang=\"en\">"), "remembered")
        let english = try StageServer().visitor(language: "zh-CN")
        #expect(try english.get("/").text.contains("<html lang=\"en\">"), "Simplified Chinese is not offered")
    }

    @Test(arguments: ["https://evil.example/", "//evil.example/x", "/\\evil.example", "javascript:alert(1)", ""])
    func loginNeverRedirectsOffSite(next: String) throws {
        let visitor = try StageServer().visitor()
        _ = try visitor.get("/login")
        let response = try visitor.post("/login", form: [("name", "Ada"), ("next", next)])
        #expect(response.status == 303)
        #expect(response.header("Location") == "/")
    }

    @Test func aBlankNameIsRefusedWithTheForm() throws {
        let visitor = try StageServer().visitor()
        _ = try visitor.get("/login")
        let response = try visitor.post("/login", form: [("name", "   "), ("next", "/restaurant/bottom/membership")])
        #expect(response.status == 400)
        #expect(response.text.contains("Enter a name of 1 to 40 characters"))
        #expect(response.text.contains("value=\"/restaurant/bottom/membership\""))
    }

    /// The Origin check alone refuses it: the post carries the session's valid CSRF token, and
    /// the same post from this site's own origin is accepted.
    @Test func aCrossSitePostWithAValidTokenIsRefused() throws {
        let stage = try StageServer()
        let visitor = stage.visitor()
        _ = try visitor.get("/restaurant/bottom/home")
        _ = try #require(visitor.csrfToken)
        let crossSite = try visitor.post(
            "/restaurant/bottom/home/action", form: [("action", "increment")],
            headers: [("Origin", "https://evil.example")])
        #expect(crossSite.status == 403)
        let sameSite = try visitor.post(
            "/restaurant/bottom/home/action", form: [("action", "increment")],
            headers: [("Origin", "http://127.0.0.1:\(stage.server.port)")])
        #expect(sameSite.status == 303)
    }

    @Test func theLeastRecentlyUsedSessionGoesPastTheCap() throws {
        let stage = try StageServer(application: .deterministic(limits: SessionLimits(maxSessions: 2)))
        let first = stage.visitor()
        _ = try first.get("/restaurant/bottom/home")
        _ = try stage.visitor().get("/restaurant/bottom/home")
        _ = try stage.visitor().get("/restaurant/bottom/home")
        #expect(stage.application.store.count == 2)
        #expect(try first.get("/restaurant/bottom/home").header("Set-Cookie") != nil, "evicted, so a new one")
    }

    @Test func anIdleSessionExpires() throws {
        let now = Mutex(StageApplication.deterministicEpoch)
        let application = StageApplication(
            apps: BuiltInApps.all,
            store: MemorySessionStore<VisitorSession>(limits: SessionLimits(idleTimeout: 60, maxSessions: 10)),
            sessionIDs: SeededSessionIDs(seed: 1), clock: { now.withLock { $0 } })
        let visitor = try StageServer(application: application).visitor()
        _ = try visitor.get("/restaurant/bottom/wallet")
        now.withLock { $0 += 59 }
        #expect(try visitor.get("/restaurant/bottom/wallet").header("Set-Cookie") == nil)
        now.withLock { $0 += 61 }
        let expired = try visitor.get("/restaurant/vertical")
        #expect(expired.header("Location") == "/restaurant/vertical/home", "the selection went with the session")
    }

    /// The same steps `serve` takes: limits from the options, the store they name, the application.
    @Test func serveTakesTheSessionOptions() throws {
        for mode in [[], ["--deterministic"]] {
            let parsed = try ParsedArguments(
                ["--session-idle-timeout", "30", "--max-sessions", "5", "--sessions", "memory"] + mode,
                options: ServeCommand.options)
            let limits = try ServeCommand.limits(parsed)
            let shelf = AppShelf(BuiltInApps.all)
            let opened = try ServeCommand.openStore(
                try ServeCommand.sessionOption(parsed), limits: limits, catalog: shelf.catalog)
            let application = ServeCommand.application(
                parsed, shelf: shelf, store: opened.store, limits: limits)
            let store = try #require(application.store as? MemorySessionStore<VisitorSession>)
            #expect(store.limits == SessionLimits(idleTimeout: 30, maxSessions: 5), "\(mode)")
            #expect((store === opened.store as AnyObject) == mode.isEmpty, "live serves the opened store")
        }
        #expect(runCLI(["serve", "--max-sessions", "0"]).code == 2)
    }

    /// `--secure-cookies` marks the session cookie in both modes, deterministic included.
    @Test func secureCookiesHoldInBothModes() throws {
        for mode in [[], ["--deterministic"]] {
            let parsed = try ParsedArguments(
                ["--secure-cookies", "--sessions", "memory"] + mode, options: ServeCommand.options)
            let limits = try ServeCommand.limits(parsed)
            let store = MemorySessionStore<VisitorSession>(limits: limits)
            let application = ServeCommand.application(
                parsed, shelf: AppShelf(BuiltInApps.all), store: store, limits: limits)
            let cookie = try StageServer(application: application).visitor().get("/restaurant/bottom/home")
                .header("Set-Cookie")
            #expect(cookie?.contains("; Secure") == true, "\(mode): \(cookie ?? "no cookie")")
        }
    }
}
