import Foundation
import Sessions
import TabModel
import Testing

@Test func aVisitorSessionSurvivesJSONEncoding() throws {
    let app = try #require(BuiltInApps.app(id: BuiltInApps.restaurantID))
    var session = VisitorSession(visitorName: "Ada", languageTag: "zh-Hant")
    session.withContainer(for: app) { container in
        _ = container.select(.tab("wallet"), source: .url, isLoggedIn: true, at: Date(timeIntervalSince1970: 0))
        _ = container.perform(
            .topUp(amount: "500"), onTab: "wallet", isLoggedIn: true, at: Date(timeIntervalSince1970: 1))
    }
    session.flash = FlashMessage(text: LocalizedText(en: "Hi", zhHant: "嗨"), isError: false)
    let decoded = try JSONDecoder().decode(VisitorSession.self, from: JSONEncoder().encode(session))
    #expect(decoded == session)
    #expect(decoded.containers["restaurant"]?.pageState(ofTab: "wallet") == .wallet(balance: 1700, lastTopUp: 500))
}

@Test func aFlashMessageIsShownOnce() {
    var session = VisitorSession(flash: FlashMessage(text: LocalizedText(en: "x", zhHant: "x"), isError: true))
    #expect(session.takeFlash()?.isError == true)
    #expect(session.takeFlash() == nil)
}
