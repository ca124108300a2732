import Foundation
import HTTPServer
import IconCatalog
import QRCode
import Sessions
import TabModel
import Views

/// The prototype server: which apps it knows, where sessions live, where ids and time come
/// from, composed of the controllers that answer its routes. It holds no lock of its own (the
/// store and the shelf do).
public final class StageApplication: Sendable {
    /// The clock of deterministic mode: every event happens at 2026-01-01T00:00:00Z.
    public static let deterministicEpoch = Date(timeIntervalSince1970: 1_767_225_600)
    /// The id seed of deterministic mode.
    public static let deterministicSeed: UInt64 = 0x7AB5_7A6E
    public static let sessionCookie = Visitors.cookieName

    /// The apps served, replaceable while serving (`serve --watch`); read `shelf.current` once
    /// per request.
    public let shelf: AppShelf
    let visitors: Visitors
    /// The open live pages of this process, subscribed to the change hub.
    let liveStreams: LiveStreams
    let pages: PageRoutes
    let assets: AssetController
    /// The file each app loaded with `serve --app` came from, by app id.
    let appFiles: [String: String]

    public init(
        apps: [AppDescription], store: any SessionStore<VisitorSession>, sessionIDs: any SessionIDSource,
        clock: @escaping @Sendable () -> Date, icons: IconRenderer = IconRenderer(), secureCookies: Bool = false,
        hub: any ChangeHub = LocalChangeHub(), shelf: AppShelf? = nil,
        log: @escaping @Sendable (String) -> Void = StageApplication.standardErrorLog, appFiles: [String: String] = [:],
        publicURL: String? = nil, qrCodes: @escaping @Sendable () -> QRCodeLibrary? = { QRCodeLibrary.shared.library }
    ) {
        self.shelf = shelf ?? AppShelf(apps)
        visitors = Visitors(store: store, sessionIDs: sessionIDs, clock: clock, hub: hub, secureCookies: secureCookies)
        liveStreams = LiveStreams(hub: hub)
        pages = PageRoutes(
            visitors: visitors, shelf: self.shelf, liveStreams: liveStreams, log: log,
            followLinks: FollowLinks(publicURL: publicURL, scheme: secureCookies ? "https" : "http", qrCodes: qrCodes))
        assets = AssetController(pages: pages, icons: icons)
        self.appFiles = appFiles
    }

    /// Random ids, the wall clock (the SQLite store keeps Unix seconds across restarts), and the
    /// given store (in memory, or SQLite).
    public static func live(
        apps: [AppDescription] = BuiltInApps.all, store: any SessionStore<VisitorSession>,
        secureCookies: Bool = false, hub: any ChangeHub = LocalChangeHub(), shelf: AppShelf? = nil,
        appFiles: [String: String] = [:], publicURL: String? = nil
    ) -> StageApplication {
        StageApplication(
            apps: apps, store: store, sessionIDs: RandomSessionIDs(), clock: { Date() }, secureCookies: secureCookies,
            hub: hub, shelf: shelf, appFiles: appFiles, publicURL: publicURL)
    }

    /// Seeded ids and a stopped clock: the same requests give the same bytes.
    public static func deterministic(
        apps: [AppDescription] = BuiltInApps.all, limits: SessionLimits = SessionLimits(), secureCookies: Bool = false,
        hub: any ChangeHub = LocalChangeHub(), shelf: AppShelf? = nil, appFiles: [String: String] = [:],
        publicURL: String? = nil, qrCodes: @escaping @Sendable () -> QRCodeLibrary? = { QRCodeLibrary.shared.library }
    ) -> StageApplication {
        StageApplication(
            apps: apps, store: MemorySessionStore<VisitorSession>(limits: limits),
            sessionIDs: SeededSessionIDs(seed: deterministicSeed), clock: { deterministicEpoch },
            secureCookies: secureCookies, hub: hub, shelf: shelf, appFiles: appFiles, publicURL: publicURL,
            qrCodes: qrCodes)
    }

    public static let standardErrorLog: @Sendable (String) -> Void = { line in
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }

    /// The apps served now.
    public var apps: [AppDescription] { shelf.current.apps }
    public func app(id: String) -> AppDescription? { shelf.current.app(id: id) }
    var store: any SessionStore<VisitorSession> { visitors.store }

    /// Adds every page route, each controller's in turn. Fixed paths come first: an app whose id
    /// is `login`, `logout`, `theme`, `icons`, `screens` or `static` would be shadowed by them. Then an
    /// app's fixed segments (`events`, `reset`, `stage`, `live`, `_more/edit`, …), before the
    /// patterns of its screens, which match any segment there.
    public func addRoutes(to router: inout Router) {
        let controllers: [any Controller] = [
            StageController(pages: pages, appFiles: appFiles),
            AccountController(pages: pages, visitors: visitors),
            assets,
            EventLogController(pages: pages),
            ExportController(pages: pages),
            RecordController(pages: pages),
            LiveController(pages: pages, visitors: visitors, liveStreams: liveStreams, shelf: shelf),
            CustomizationController(pages: pages),
            TabController(pages: pages),
        ]
        for controller in controllers { controller.addRoutes(to: &router) }
        // A path no route matches is a 404 in the app's look, whatever the method; one that
        // routes match for other methods is the router's 405.
        router.fallback = pages.notFound
    }

    // MARK: Replaying requests in process

    /// The session a request's cookie names, as the store holds it now (nil without one): what a
    /// tool replaying requests in process reads beside each response.
    public func session(of request: Request) -> VisitorSession? {
        try? visitors.read(request)
    }

    /// The language a page of `app` (nil: about no app) answering `request` is in, for a visitor
    /// with `session`.
    public func language(of request: Request, session: VisitorSession, app: AppDescription?) -> PageLanguage {
        RequestedSettings(request, languages: app.map { PageLanguages(tags: $0.languages) } ?? UILanguage.pageLanguages)
            .language(of: session)
    }

    // MARK: Apps replaced while serving

    /// Serves `app` in place of the app `replacedID` (usually its own id): every open page of it
    /// hears, and each visitor's container moves onto the new tabs when next read.
    @discardableResult
    public func replaceApp(_ replacedID: String, with app: AppDescription) -> Bool {
        guard let served = shelf.replace(replacedID, with: app) else { return false }
        visitors.hub.publish(ChangeNotice(topic: LiveTopic.app(app.id), version: served.generation(ofApp: app.id)))
        if replacedID != app.id {
            visitors.hub.publish(
                ChangeNotice(topic: LiveTopic.app(replacedID), version: served.generation(ofApp: app.id)))
        }
        return true
    }

    /// Marks the app's file invalid (`problems`, as `tabstage check` prints them) or valid again
    /// (empty): its open pages show them in a banner.
    public func reportProblems(_ problems: [String], forApp appID: String) {
        shelf.report(problems, forApp: appID)
        visitors.hub.publish(ChangeNotice(topic: LiveTopic.app(appID), version: shelf.current.generation(ofApp: appID)))
    }
}

/// A part of the application that answers some routes, holding only what it uses.
protocol Controller: Sendable {
    func addRoutes(to router: inout Router)
}

extension StageController: Controller {}
extension RecordController: Controller {}
extension AccountController: Controller {}
extension AssetController: Controller {}
extension EventLogController: Controller {}
extension ExportController: Controller {}
extension LiveController: Controller {}
extension CustomizationController: Controller {}
extension TabController: Controller {}

/// A session store that failed: 503, and nothing half-done.
extension SessionStoreError: HTTPResponseError {
    public var status: HTTPStatus { .serviceUnavailable }
}
