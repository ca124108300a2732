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

/// `VisitorSession`'s `==` is written by hand: a session differing from another in any one
/// field is not equal to it, and equal copies are.
@Test func everyFieldTellsSessionsApart() throws {
    let app = try #require(BuiltInApps.app(id: BuiltInApps.restaurantID))
    let base = VisitorSession(csrfToken: "t", revision: 1)
    var full = base
    full.withContainer(for: app) { _ in }
    full.visitorName = "Ada"
    full.languageTag = "zh-Hant"
    full.flash = FlashMessage(text: LocalizedText(en: "Hi", zhHant: "嗨"), isError: false)
    full.presentation = Presentation(code: "ABCD", appID: app.id, layout: .bottom)
    full.appearanceName = "dark"
    full.hidesDeviceFrames = true
    full.recording = TestRecording(appID: app.id, startedAt: 0, startedLoggedInAs: nil)
    let changes: [(inout VisitorSession) -> Void] = [
        { $0.containers = full.containers }, { $0.visitorName = full.visitorName },
        { $0.languageTag = full.languageTag }, { $0.flash = full.flash }, { $0.csrfToken = "u" },
        { $0.revision = 2 }, { $0.presentation = full.presentation }, { $0.appearanceName = full.appearanceName },
        { $0.hidesDeviceFrames = full.hidesDeviceFrames }, { $0.recording = full.recording },
    ]
    // One change per stored field: a field added to VisitorSession needs its change here.
    #expect(changes.count == Mirror(reflecting: base).children.count)
    for change in changes {
        var changed = base
        change(&changed)
        #expect(changed != base)
        #expect(base != changed)
        #expect(changed == changed)
        var other = full
        other.presentation?.shown = .more
        #expect(other != full)
    }
    let copy = full
    #expect(copy == full)
    var flashed = full
    flashed.flash?.isError = true
    #expect(flashed != full)
}
