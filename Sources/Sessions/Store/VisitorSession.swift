import TabModel

/// What the server keeps for one visitor. Codable, so a durable store can keep it as is; decoding
/// needs an ``AppCatalog`` in `decoder.userInfo[.appCatalog]`, as for ``TabContainer``.
public struct VisitorSession: Sendable, Equatable, Codable {
    /// One container per app, made on the first request about that app. A stored container of an
    /// app the catalog no longer has is dropped when decoding.
    @DroppingUnknownApps public var containers: [String: TabContainer]
    /// The logged-in visitor's name; nil when logged out.
    public var visitorName: String?
    /// The language tag last chosen with `?lang=` (one of the languages of the page it was chosen
    /// on): a page in the same language follows it, any other ignores it; nil follows the
    /// browser's Accept-Language.
    public var languageTag: String?
    /// A message shown once, on the next page this visitor sees (post/redirect/get).
    public var flash: FlashMessage?
    /// The token every form of this visitor carries; a POST without it is refused (CSRF).
    /// Random, from the session id source; optional so that sessions stored before it decode.
    public var csrfToken: String?
    /// Counts the committed changes to this session: open pages compare it with the one they
    /// were drawn from to know they are stale. Optional so that sessions stored before it decode.
    public var revision: UInt64?
    /// What this visitor presents to followers (`POST /{app}/present`); nil when not presenting.
    public var presentation: Presentation?
    /// The appearance chosen with `?appearance=` (`light` or `dark`); nil follows the browser.
    public var appearanceName: String?
    /// True after `?frame=none`: no device frames around the prototype. Optional, like the
    /// fields above, so that sessions stored before it decode.
    public var hidesDeviceFrames: Bool?
    /// "Record a test": the visitor's requests since they asked, kept for the download; nil
    /// when they never recorded (and for sessions stored before it).
    public var recording: TestRecording?

    public init(
        containers: [String: TabContainer] = [:], visitorName: String? = nil, languageTag: String? = nil,
        flash: FlashMessage? = nil, csrfToken: String? = nil, revision: UInt64? = nil,
        presentation: Presentation? = nil, appearanceName: String? = nil, hidesDeviceFrames: Bool? = nil
    ) {
        self.containers = containers
        self.visitorName = visitorName
        self.languageTag = languageTag
        self.flash = flash
        self.csrfToken = csrfToken
        self.revision = revision
        self.presentation = presentation
        self.appearanceName = appearanceName
        self.hidesDeviceFrames = hidesDeviceFrames
    }

    public var isLoggedIn: Bool { visitorName != nil }

    /// Every field compared, as the derived `==` would (a field added must be added here:
    /// `everyFieldTellsSessionsApart` checks each), but an optional struct that is nil on both
    /// sides is told apart by its tag alone: the derived `==` copies each optional field (and
    /// retains and releases what it holds) to compare it, and `Visitors.visit` compares a
    /// session on every page it reads.
    public static func == (lhs: VisitorSession, rhs: VisitorSession) -> Bool {
        lhs.revision == rhs.revision && lhs.csrfToken == rhs.csrfToken && lhs.visitorName == rhs.visitorName
            && lhs.languageTag == rhs.languageTag && lhs.appearanceName == rhs.appearanceName
            && lhs.hidesDeviceFrames == rhs.hidesDeviceFrames && bothNilOrEqual(lhs.flash, rhs.flash)
            && bothNilOrEqual(lhs.presentation, rhs.presentation) && bothNilOrEqual(lhs.recording, rhs.recording)
            && lhs.containers == rhs.containers
    }

    /// Two optionals, borrowed: equal when both are nil, different when one is; compared (and
    /// copied) only when both hold a value.
    @inline(__always)
    private static func bothNilOrEqual<Value: Equatable>(_ left: borrowing Value?, _ right: borrowing Value?) -> Bool {
        switch (isNil(left), isNil(right)) {
        case (true, true): true
        case (false, false): copy left == copy right
        default: false
        }
    }

    @inline(__always)
    private static func isNil<Value>(_ value: borrowing Value?) -> Bool {
        value == nil
    }

    private enum CodingKeys: String, CodingKey {
        case containers, visitorName, languageTag, flash, csrfToken, revision, presentation, appearanceName
        case hidesDeviceFrames, recording
    }

    /// Containers saved on tabs that changed since are moved to the current ones as this
    /// visitor: the login guard knows whether they are logged in.
    public init(from decoder: any Decoder) throws {
        let keyed = try decoder.container(keyedBy: CodingKeys.self)
        visitorName = try keyed.decodeIfPresent(String.self, forKey: .visitorName)
        languageTag = try keyed.decodeIfPresent(String.self, forKey: .languageTag)
        flash = try keyed.decodeIfPresent(FlashMessage.self, forKey: .flash)
        csrfToken = try keyed.decodeIfPresent(String.self, forKey: .csrfToken)
        revision = try keyed.decodeIfPresent(UInt64.self, forKey: .revision)
        presentation = try keyed.decodeIfPresent(Presentation.self, forKey: .presentation)
        appearanceName = try keyed.decodeIfPresent(String.self, forKey: .appearanceName)
        hidesDeviceFrames = try keyed.decodeIfPresent(Bool.self, forKey: .hidesDeviceFrames)
        recording = try keyed.decodeIfPresent(TestRecording.self, forKey: .recording)
        let isLoggedIn = visitorName != nil
        let saved = try keyed.decode([String: DroppingUnknownApps.Entry].self, forKey: .containers)
        _containers = DroppingUnknownApps(
            wrappedValue: saved.compactMapValues { $0.saved?.current(isLoggedIn: isLoggedIn) })
    }

    /// The visitor's container for `app`, made when first asked for.
    public mutating func container(for app: AppDescription) -> TabContainer {
        if let existing = containers[app.id] { return existing }
        let made = TabContainer(app: app)
        containers[app.id] = made
        return made
    }

    /// Runs `body` on the visitor's container for `app` (made if needed) and keeps the result.
    public mutating func withContainer<Result>(for app: AppDescription, _ body: (inout TabContainer) -> Result)
        -> Result
    {
        var container = container(for: app)
        let result = body(&container)
        containers[app.id] = container
        return result
    }

    /// Returns the flash message and forgets it.
    public mutating func takeFlash() -> FlashMessage? {
        defer { flash = nil }
        return flash
    }
}

/// A visitor presenting one app: whoever opens `/{app}/follow/{code}` sees that app as this
/// visitor does, in the layout they last showed it in, and cannot change it.
public struct Presentation: Sendable, Equatable, Codable {
    /// The follow link's secret: random, URL-safe, never the session id.
    public var code: String
    public var appID: String
    public var layout: Layout
    /// The screen the presenter's window shows now (their last screen of the app drawn, live
    /// re-reads aside), which followers see; nil until one is drawn (a session stored before).
    public var shown: PresentedScreen?

    public init(code: String, appID: String, layout: Layout, shown: PresentedScreen? = nil) {
        self.code = code
        self.appID = appID
        self.layout = layout
        self.shown = shown
    }
}

/// A screen of an app as a presenter shows it: a tab, the log-in sheet over the selected tab
/// (the tab that asked for it), the More list, its edit list, or a pushed detail.
public enum PresentedScreen: Sendable, Equatable, Codable {
    case tab(id: String)
    case refused(tabID: String)
    case more
    case editTabs
    case detail(tabID: String, itemID: String)
}

/// A one-shot message: its text in every language, and whether it reports a refusal.
public struct FlashMessage: Sendable, Equatable, Codable {
    public var text: LocalizedText
    public var isError: Bool

    public init(text: LocalizedText, isError: Bool) {
        self.text = text
        self.isError = isError
    }
}

/// Decodes a session's containers leaving out those of apps no longer served, so a removed app
/// costs its visitors that app's state and nothing else.
@propertyWrapper
public struct DroppingUnknownApps: Sendable, Equatable, Codable {
    public var wrappedValue: [String: TabContainer]

    public init(wrappedValue: [String: TabContainer]) {
        self.wrappedValue = wrappedValue
    }

    /// One stored container; nil when its app is no longer served.
    struct Entry: Decodable {
        var saved: TabContainer.Saved?

        init(from decoder: any Decoder) throws {
            do {
                saved = try TabContainer.Saved(from: decoder)
            } catch AppCatalogError.unknownApp {
                saved = nil
            }
        }
    }

    /// Containers decoded alone are moved to changed tabs as for a logged-out visitor.
    public init(from decoder: any Decoder) throws {
        wrappedValue = try [String: Entry](from: decoder).compactMapValues { $0.saved?.current(isLoggedIn: false) }
    }

    public func encode(to encoder: any Encoder) throws {
        try wrappedValue.encode(to: encoder)
    }
}
