import HTTPServer
import Synchronization
import TabModel
import Views

/// The apps served at one moment, with their markup. An app file edited while serving
/// (`serve --watch`, SIGHUP) makes a new snapshot; a request reads one snapshot throughout, so
/// an app and its markup are always of the same version.
///
/// The apps keep their places: a replaced app takes the slot of the one it replaces, so an
/// index found in one snapshot names the same app in every later one.
public final class ServedApps: Sendable {
    public let apps: [AppDescription]
    /// Each app's page parts written once, in the order of `apps`.
    let markups: [AppMarkup]
    /// Per app id, how many times it was replaced while serving (0 at start).
    let generations: [String: UInt64]
    /// `generations` of the served apps, by their place in `apps`: what a page reads.
    private let generationsByPlace: [UInt64]
    /// Per app id, the problems of its file's newest version when that version is invalid (the
    /// last good one still serves), as `tabstage check` prints them.
    let problems: [String: [String]]
    /// The served apps' screen images by their URL's file name (`FINGERPRINT.png`), each
    /// answer prepared once: `/screens/{file}` looks here, never on the disk.
    let screenImages: [String: TaggedResponses]

    init(apps: [AppDescription], generations: [String: UInt64] = [:], problems: [String: [String]] = [:]) {
        self.apps = apps
        self.markups = apps.map { AppMarkup(app: $0) }
        self.generations = generations
        generationsByPlace = apps.map { generations[$0.id, default: 0] }
        self.problems = problems
        screenImages = Self.screenImages(of: apps, reusing: [:])
    }

    private init(
        apps: [AppDescription], markups: [AppMarkup], generations: [String: UInt64], problems: [String: [String]],
        screenImages: [String: TaggedResponses]
    ) {
        self.apps = apps
        self.markups = markups
        self.generations = generations
        generationsByPlace = apps.map { generations[$0.id, default: 0] }
        self.problems = problems
        self.screenImages = screenImages
    }

    /// The answers for every screen image of `apps`, those of `earlier` kept as they are.
    private static func screenImages(of apps: [AppDescription], reusing earlier: [String: TaggedResponses])
        -> [String: TaggedResponses]
    {
        var answers: [String: TaggedResponses] = [:]
        for app in apps {
            for tab in app.tabs {
                guard case .screen(let page) = tab.page.content else { continue }
                for image in page.images {
                    let name = String(image.path.dropFirst("/screens/".count))
                    guard answers[name] == nil else { continue }
                    answers[name] =
                        earlier[name]
                        ?? TaggedResponses(
                            body: image.bytes, contentType: image.format.contentType,
                            entityTag: "\"\(image.fingerprint)\"", cacheControl: AssetController.immutableCacheControl)
                }
            }
        }
        return answers
    }

    func index(ofApp id: String) -> Int? { apps.firstIndex { $0.id == id } }

    func app(id: String) -> AppDescription? { index(ofApp: id).map { apps[$0] } }

    func generation(ofApp id: String) -> UInt64 { generations[id, default: 0] }

    /// The generation of the app at `index` in `apps`.
    func generation(at index: Int) -> UInt64 { generationsByPlace[index] }

    /// `app` in the place of the app `replacedID` (or of the app with its own id), its problems
    /// cleared. Nil when neither is served, or when its id is another served app's.
    func replacing(_ replacedID: String, with app: AppDescription) -> ServedApps? {
        guard let index = index(ofApp: replacedID) ?? index(ofApp: app.id) else { return nil }
        if let other = self.index(ofApp: app.id), other != index { return nil }
        var apps = self.apps
        var markups = self.markups
        apps[index] = app
        markups[index] = AppMarkup(app: app)
        var generations = self.generations
        generations[app.id] = max(generation(ofApp: app.id), generation(ofApp: replacedID)) + 1
        var problems = self.problems
        problems[replacedID] = nil
        problems[app.id] = nil
        return ServedApps(
            apps: apps, markups: markups, generations: generations, problems: problems,
            screenImages: Self.screenImages(of: apps, reusing: screenImages))
    }

    /// The same apps, with `appID`'s file reported invalid (`problems` empty: valid again).
    func reporting(_ problems: [String], forApp appID: String) -> ServedApps {
        var all = self.problems
        all[appID] = problems.isEmpty ? nil : problems
        return ServedApps(
            apps: apps, markups: markups, generations: generations, problems: all, screenImages: screenImages)
    }
}

/// Holds the current `ServedApps` and swaps it whole: the one place where the served apps change.
public final class AppShelf: Sendable {
    private let snapshot: Mutex<ServedApps>

    public init(_ apps: [AppDescription]) {
        snapshot = Mutex(ServedApps(apps: apps))
    }

    public var current: ServedApps { snapshot.withLock { $0 } }

    /// Replaces the app `replacedID` with `app`; the new snapshot, or nil when refused (see
    /// `ServedApps.replacing`).
    @discardableResult
    func replace(_ replacedID: String, with app: AppDescription) -> ServedApps? {
        snapshot.withLock { current in
            guard let next = current.replacing(replacedID, with: app) else { return nil }
            current = next
            return next
        }
    }

    func report(_ problems: [String], forApp appID: String) {
        snapshot.withLock { $0 = $0.reporting(problems, forApp: appID) }
    }

    /// Looks stored containers' apps up in whatever is current when they are read.
    public var catalog: AppCatalog { AppCatalog(resolve: { [self] id in current.app(id: id) }) }
}
