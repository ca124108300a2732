import Foundation

/// The apps a decoder may attach to a decoded ``TabContainer``, which stores only its app's id.
///
/// Whoever decodes containers sets one in the decoder's user info under ``CodingUserInfoKey/appCatalog``:
/// `decoder.userInfo[.appCatalog] = AppCatalog(apps)`.
public struct AppCatalog: Sendable {
    private let resolve: @Sendable (String) -> AppDescription?

    /// The apps, by id (the first of two with one id wins).
    public init(_ apps: [AppDescription]) {
        var byID: [String: AppDescription] = [:]
        for app in apps where byID[app.id] == nil { byID[app.id] = app }
        resolve = { [byID] id in byID[id] }
    }

    /// Apps looked up by a function, for catalogs that change while serving.
    public init(resolve: @escaping @Sendable (String) -> AppDescription?) {
        self.resolve = resolve
    }

    public func app(id: String) -> AppDescription? { resolve(id) }
}

extension CodingUserInfoKey {
    /// Where a decoder of ``TabContainer`` values finds its ``AppCatalog``.
    public static let appCatalog: CodingUserInfoKey = {
        // The initializer is failable only in its signature: any raw value makes a key.
        guard let key = CodingUserInfoKey(rawValue: "TabStage.appCatalog") else {
            preconditionFailure("CodingUserInfoKey refused a raw value")
        }
        return key
    }()
}

/// Why a stored ``TabContainer`` could not be decoded.
public enum AppCatalogError: Error, Equatable, CustomStringConvertible {
    /// The decoder has no ``AppCatalog`` in its user info: a programming error of the decoder's owner.
    case noCatalog
    /// The app is no longer served: the container is gone (``VisitorSession`` drops it).
    case unknownApp(id: String)

    public var description: String {
        switch self {
        case .noCatalog: "decoding a TabContainer needs an AppCatalog in decoder.userInfo[.appCatalog]"
        case .unknownApp(let id): "there is no app '\(id)' any more"
        }
    }
}

/// The stored form names the app by id and lists its tabs (ids and page kinds), so a description
/// that changed since is noticed: the container is then rebuilt on the tabs it was saved with and
/// moved to the current ones by ``TabContainer/replaceTabs(with:isLoggedIn:at:)``'s rules (at the
/// time of its last event), which the log shows as `tabsReplaced`. Decoded alone, it is moved as
/// for a logged-out visitor, so the guard never lets it onto a login-only tab;
/// ``TabContainer/Saved`` lets a session that knows its visitor move it as them.
///
/// ```json
/// {"app": "restaurant", "tabs": ["home", ...], "kinds": ["text", ...], "selected": "home",
///  "pages": {"home": {"text": {}}}, "badges": {"news": {"count": {"_0": 3}}}, "loaded": ["home"],
///  "arrangement": {"order": ["news", "home", ...], "hidden": ["more"]},
///  "log": {"capacity": 500, "next": 10, "records": "<base64>", "unpacked": [...]}}
/// ```
///
/// `records` packs each event in 4 bytes (code, tab position, source, flags), followed by its time
/// (8 bytes, only when it differs from the previous event's) and a badge count (4 bytes, when it has
/// one), all little-endian. Events that carry text are in `unpacked`, as ``ContainerEventKind``s.
extension TabContainer: Codable {
    private enum CodingKeys: String, CodingKey {
        case app, tabs, kinds, selected, pages, badges, pushed, loaded, more, log, arrangement, customizingFrom
    }

    private enum LogKeys: String, CodingKey {
        case capacity, next, records, unpacked
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(app.id, forKey: .app)
        try container.encode(app.tabs.map(\.id), forKey: .tabs)
        try container.encode(app.tabs.map(\.page.kind), forKey: .kinds)
        try container.encodeIfPresent(selectedTabID, forKey: .selected)
        try container.encode(pageStates, forKey: .pages)
        try container.encode(badges, forKey: .badges)
        var pushed: [String: String] = [:]
        for position in app.tabs.indices {
            if let item = pushedItem(at: position) { pushed[app.tabs[position].id] = item }
        }
        if !pushed.isEmpty { try container.encode(pushed, forKey: .pushed) }
        try container.encode(app.tabs.indices.filter(isViewLoaded).map { app.tabs[$0].id }, forKey: .loaded)
        // Absent while More was never selected nor pushed to, as in a container stored before it.
        if more != MoreStack() {
            let stored = StoredMore(selected: more.isSelected, top: more.top.map { app.tabs[$0].id })
            try container.encode(stored, forKey: .more)
        }
        // Both absent until the visitor customizes: a container stored before them decodes as one
        // that never did.
        try container.encodeIfPresent(customArrangement.map { StoredArrangement($0, of: app) }, forKey: .arrangement)
        try container.encodeIfPresent(
            arrangementBeforeCustomizing.map { StoredArrangement($0, of: app) }, forKey: .customizingFrom)
        var logContainer = container.nestedContainer(keyedBy: LogKeys.self, forKey: .log)
        try logContainer.encode(log.capacity, forKey: .capacity)
        try logContainer.encode(log.nextSequence, forKey: .next)
        try logContainer.encode(Data(EventRecord.serialize(log.records)).base64EncodedString(), forKey: .records)
        try logContainer.encode(log.unpacked, forKey: .unpacked)
    }

    public init(from decoder: any Decoder) throws {
        self = try Saved(from: decoder).current(isLoggedIn: false)
    }

    /// A container as it was stored, on the tabs it was saved with, and its app as served now.
    public struct Saved: Decodable, Sendable {
        var container: TabContainer
        /// nil when the container was saved on the app's current tabs.
        var changedApp: AppDescription?

        public init(from decoder: any Decoder) throws {
            (container, changedApp) = try TabContainer.decodeSaved(from: decoder)
        }

        /// The container on the app's current tabs, moved there (when they changed) by the
        /// replacement rules for a visitor who is or is not logged in.
        public func current(isLoggedIn: Bool) -> TabContainer {
            guard let changedApp else { return container }
            var moved = container
            let lastTime = moved.log.lastTime.map { Date(timeIntervalSince1970: $0) } ?? Date(timeIntervalSince1970: 0)
            moved.replaceTabs(with: changedApp, isLoggedIn: isLoggedIn, at: lastTime)
            return moved
        }
    }

    /// The container on its saved tabs, and the app's current description when those differ.
    private static func decodeSaved(from decoder: any Decoder) throws -> (TabContainer, AppDescription?) {
        guard let catalog = decoder.userInfo[.appCatalog] as? AppCatalog else { throw AppCatalogError.noCatalog }
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let appID = try container.decode(String.self, forKey: .app)
        guard let app = catalog.app(id: appID) else { throw AppCatalogError.unknownApp(id: appID) }
        let tabIDs = try container.decode([String].self, forKey: .tabs)
        let kinds = try container.decode([PageKind].self, forKey: .kinds)
        guard tabIDs.count == kinds.count, !tabIDs.isEmpty, Set(tabIDs).count == tabIDs.count else {
            throw DecodingError.dataCorruptedError(
                forKey: .tabs, in: container, debugDescription: "tabs and kinds do not match")
        }
        let isCurrent = tabIDs == app.tabs.map(\.id) && kinds == app.tabs.map(\.page.kind)
        let saved = isCurrent ? app : Self.standIn(for: app, tabIDs: tabIDs, kinds: kinds)

        func corrupted(_ key: CodingKeys, _ problem: String) -> DecodingError {
            DecodingError.dataCorruptedError(forKey: key, in: container, debugDescription: problem)
        }
        let logContainer = try container.nestedContainer(keyedBy: LogKeys.self, forKey: .log)
        let encoded = try logContainer.decode(String.self, forKey: .records)
        guard let bytes = Data(base64Encoded: encoded), let records = EventRecord.deserialize(Array(bytes)),
            let log = EventLog(
                capacity: try logContainer.decode(Int.self, forKey: .capacity),
                nextSequence: try logContainer.decode(Int.self, forKey: .next), tabs: saved.tabs, records: records,
                unpacked: try logContainer.decode([ContainerEventKind].self, forKey: .unpacked))
        else { throw corrupted(.log, "the event log's records are damaged") }

        var decoded = TabContainer(app: saved)
        decoded.log = log
        if let selected = try container.decodeIfPresent(String.self, forKey: .selected) {
            guard let position = saved.index(ofTab: selected) else { throw corrupted(.selected, "unknown tab") }
            decoded.selectedIndex = position
        }
        for (tabID, state) in try container.decode([String: PageState].self, forKey: .pages) {
            guard let position = saved.index(ofTab: tabID), saved.tabs[position].page.kind == state.kind else {
                throw corrupted(.pages, "a page state of an unknown tab or of another kind")
            }
            decoded.setChildState(state, at: position)
        }
        for (tabID, item) in try container.decodeIfPresent([String: String].self, forKey: .pushed) ?? [:] {
            guard let position = saved.index(ofTab: tabID), decoded.hasChild(at: position) else {
                throw corrupted(.pushed, "a navigation stack of a tab without a child")
            }
            decoded.setPushedItem(item, at: position)
        }
        // A container stored before `loaded` was kept: every child counts as loaded, so no view loads twice.
        let loaded = try container.decodeIfPresent([String].self, forKey: .loaded) ?? saved.tabs.map(\.id)
        for tabID in loaded {
            guard let position = saved.index(ofTab: tabID) else { throw corrupted(.loaded, "unknown tab") }
            decoded.setViewLoaded(at: position)
        }
        if let stored = try container.decodeIfPresent(StoredMore.self, forKey: .more) {
            decoded.more.isSelected = stored.selected
            if let top = stored.top {
                guard let position = saved.index(ofTab: top) else { throw corrupted(.more, "unknown tab") }
                decoded.more.top = position
            }
        }
        decoded.customArrangement = try decodeArrangement(container, .arrangement, of: saved)
        decoded.arrangementBeforeCustomizing = try decodeArrangement(container, .customizingFrom, of: saved)
        let badges = try container.decode([String: Badge].self, forKey: .badges)
        for (position, tab) in saved.tabs.enumerated() { decoded.setVisibleBadge(badges[tab.id], at: position) }
        return (decoded, isCurrent ? nil : app)
    }

    /// The arrangement stored under `key`, on the saved tabs; nil when there is none.
    private static func decodeArrangement(
        _ container: KeyedDecodingContainer<CodingKeys>, _ key: CodingKeys, of saved: AppDescription
    ) throws -> TabArrangement? {
        guard let stored = try container.decodeIfPresent(StoredArrangement.self, forKey: key) else { return nil }
        guard let arrangement = stored.arrangement(of: saved) else {
            throw DecodingError.dataCorruptedError(
                forKey: key, in: container, debugDescription: "an arrangement that does not fit the tabs")
        }
        return arrangement
    }

    /// The app as it was saved, as far as the ids and kinds tell: the current tab of each id and
    /// kind, and an empty page of the saved kind for the others.
    private static func standIn(for app: AppDescription, tabIDs: [String], kinds: [PageKind]) -> AppDescription {
        var savedApp = app
        savedApp.tabs = zip(tabIDs, kinds).map { tabID, kind in
            if let current = app.tab(id: tabID), current.page.kind == kind { return current }
            let title = LocalizedText(en: tabID, zhHant: tabID)
            return TabDescription(
                id: tabID, title: title, icon: .builtIn(.star), page: PageDescription(content: .empty(kind)))
        }
        return savedApp
    }
}

/// The More navigation controller as a session stores it: selected or not, and its tab by id.
private struct StoredMore: Codable {
    var selected: Bool
    var top: String?
}

extension PageContent {
    /// A page of `kind` with nothing on it.
    static func empty(_ kind: PageKind) -> PageContent {
        switch kind {
        case .text: .text
        case .counter: .counter(CounterPage(label: LocalizedText(en: "", zhHant: "")))
        case .search: .search(placeholder: nil, items: [])
        case .wallet: .wallet(WalletPage(currency: "TWD", balance: 0, topUpCap: 0))
        case .news: .news(items: [])
        case .profile: .profile
        case .checklist: .checklist(items: [])
        case .settings: .settings(toggles: [])
        case .screen:
            .screen(
                ScreenPage(
                    screen: ScreenView(
                        images: [
                            ScreenImage(
                                file: "", format: .png, pixelWidth: 1, pixelHeight: 1, scale: 1, fingerprint: "")
                        ], alt: LocalizedText(en: "", zhHant: ""))))
        }
    }
}

extension EventLog {
    /// The newest event's time, in seconds.
    var lastTime: Double? { records.last?.time }
}

extension EventRecord {
    private static let hasTime: UInt8 = 0x40
    private static let hasArgument: UInt8 = 0x80

    static func serialize(_ records: [EventRecord]) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(records.count * 5 + 8)
        var previousTime: UInt64?
        for record in records {
            let time = record.time.bitPattern
            let writesTime = time != previousTime
            let writesArgument = record.argument != 0
            previousTime = time
            var flags = record.flags
            if writesTime { flags |= hasTime }
            if writesArgument { flags |= hasArgument }
            bytes += [record.code, record.tab, record.source, flags]
            if writesTime { bytes += (0..<8).map { UInt8(truncatingIfNeeded: time >> (8 * $0)) } }
            if writesArgument {
                let argument = UInt32(bitPattern: record.argument)
                bytes += (0..<4).map { UInt8(truncatingIfNeeded: argument >> (8 * $0)) }
            }
        }
        return bytes
    }

    /// nil when the bytes are cut short or the first record has no time.
    static func deserialize(_ bytes: [UInt8]) -> [EventRecord]? {
        var records: [EventRecord] = []
        var offset = 0
        var time: Double?
        func read(_ count: Int) -> UInt64? {
            guard offset + count <= bytes.count else { return nil }
            defer { offset += count }
            return (0..<count).reduce(UInt64(0)) { $0 | UInt64(bytes[offset + $1]) << (8 * $1) }
        }
        while offset < bytes.count {
            guard offset + 4 <= bytes.count else { return nil }
            let (code, tab, source, flags) = (bytes[offset], bytes[offset + 1], bytes[offset + 2], bytes[offset + 3])
            offset += 4
            if flags & hasTime != 0 {
                guard let bits = read(8) else { return nil }
                time = Double(bitPattern: bits)
            }
            var argument: Int32 = 0
            if flags & hasArgument != 0 {
                guard let bits = read(4) else { return nil }
                argument = Int32(bitPattern: UInt32(truncatingIfNeeded: bits))
            }
            guard let time else { return nil }
            records.append(
                EventRecord(
                    time: time, code: code, tab: tab, source: source, flags: flags & ~(hasTime | hasArgument),
                    argument: argument))
        }
        return records
    }
}
