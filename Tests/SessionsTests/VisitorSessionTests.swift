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
    let decoder = JSONDecoder()
    decoder.userInfo[.appCatalog] = AppCatalog(BuiltInApps.all)
    let decoded = try decoder.decode(VisitorSession.self, from: JSONEncoder().encode(session))
    #expect(decoded == session)
    #expect(decoded.containers["restaurant"]?.pageState(ofTab: "wallet") == .wallet(balance: 1700, lastTopUp: 500))
}

@Test func aFlashMessageIsShownOnce() {
    var session = VisitorSession(flash: FlashMessage(text: LocalizedText(en: "x", zhHant: "x"), isError: true))
    #expect(session.takeFlash()?.isError == true)
    #expect(session.takeFlash() == nil)
}

@Test func aContainerOfAnAppNoLongerServedIsDroppedWithNothingElse() throws {
    let restaurant = try #require(BuiltInApps.app(id: BuiltInApps.restaurantID))
    let vertical = try #require(BuiltInApps.app(id: BuiltInApps.verticalID))
    var session = VisitorSession(visitorName: "Ada")
    for app in [restaurant, vertical] {
        session.withContainer(for: app) { container in
            _ = container.select(.index(1), source: .tap, isLoggedIn: true, at: Date(timeIntervalSince1970: 0))
        }
    }
    let encoded = try JSONEncoder().encode(session)

    let decoder = JSONDecoder()
    decoder.userInfo[.appCatalog] = AppCatalog([restaurant])
    let decoded = try decoder.decode(VisitorSession.self, from: encoded)
    #expect(decoded.visitorName == "Ada")
    #expect(Array(decoded.containers.keys) == [BuiltInApps.restaurantID])
    #expect(decoded.containers[BuiltInApps.restaurantID] == session.containers[BuiltInApps.restaurantID])

    // Without any catalog nothing can be decoded: that is the decoder owner's mistake, not the data's.
    #expect(throws: AppCatalogError.noCatalog) { try JSONDecoder().decode(VisitorSession.self, from: encoded) }
}
