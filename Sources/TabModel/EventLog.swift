import Foundation

/// The container's ordered log, keeping only the newest ``capacity`` events so a long
/// session's state stays small; ``droppedCount`` says how many older ones were let go.
///
/// Kept packed: the common events are 16-byte records naming their tab by its position in the
/// container's tab list (shared with the app description, so it costs nothing), and only events
/// that carry text (refusals, page actions, replaced tabs) keep their ``ContainerEventKind`` as is.
/// ``events`` unpacks them, so readers see the same values either way.
public struct EventLog: Sendable, Equatable, Codable {
    public static let defaultCapacity = 500

    public let capacity: Int
    /// The sequence number the next event gets.
    public private(set) var nextSequence = 1
    /// The tabs that records' `tab` positions name.
    private(set) var tabs: [TabDescription]
    private(set) var records: [EventRecord] = []
    /// The kinds of the `.unpacked` records, in order.
    private(set) var unpacked: [ContainerEventKind] = []
    /// The layout that events appended now are stamped with: the current request's.
    var layout: Layout?

    public init(capacity: Int = EventLog.defaultCapacity) {
        self.init(capacity: capacity, tabs: [])
    }

    init(capacity: Int, tabs: [TabDescription]) {
        self.capacity = max(1, capacity)
        self.tabs = tabs
    }

    /// The events kept, oldest first.
    public var events: [ContainerEvent] {
        var result: [ContainerEvent] = []
        result.reserveCapacity(records.count)
        var nextUnpacked = unpacked.startIndex
        let first = nextSequence - records.count
        for (offset, record) in records.enumerated() {
            let kind: ContainerEventKind
            if let packed = record.kind(tabs: tabs) {
                kind = packed
            } else {
                kind = unpacked[nextUnpacked]
                nextUnpacked += 1
            }
            result.append(
                ContainerEvent(
                    sequence: first + offset, time: Date(timeIntervalSince1970: record.time), kind: kind,
                    layout: record.layout))
        }
        return result
    }

    /// Events dropped to stay within ``capacity``.
    public var droppedCount: Int { nextSequence - 1 - records.count }

    mutating func append(_ kind: ContainerEventKind, at time: Date) {
        let seconds = time.timeIntervalSince1970
        // Half as much room again, not twice: a short log (an idle visitor's first page) wastes less.
        if records.count == records.capacity && records.count < capacity {
            records.reserveCapacity(min(capacity + 1, max(4, records.count + records.count / 2)))
        }
        if var record = EventRecord(kind, time: seconds, tabs: tabs) {
            record.layout = layout
            records.append(record)
        } else {
            var record = EventRecord(unpackedAt: seconds)
            record.layout = layout
            records.append(record)
            unpacked.append(kind)
        }
        nextSequence += 1
        if records.count > capacity {
            let excess = records.count - capacity
            let droppedUnpacked = records[..<excess].count { $0.code == EventRecord.unpackedCode }
            records.removeFirst(excess)
            unpacked.removeFirst(droppedUnpacked)
        }
    }

    /// Makes `newTabs` the list that positions name. Every record named a tab of the old list, so
    /// the events kept are unpacked first: old events keep naming the tabs they were about.
    mutating func retarget(to newTabs: [TabDescription]) {
        guard tabs != newTabs else { return }
        let all = events
        tabs = newTabs
        records = all.map { event in
            var record = EventRecord(unpackedAt: event.time.timeIntervalSince1970)
            record.layout = event.layout
            return record
        }
        unpacked = all.map(\.kind)
    }

    /// A log read back from storage: `records` name positions in `tabs`, and `unpacked` holds the
    /// kinds of the unpacked ones. nil when the pieces do not fit together.
    init?(
        capacity: Int, nextSequence: Int, tabs: [TabDescription], records: [EventRecord],
        unpacked: [ContainerEventKind]
    ) {
        guard capacity >= 1, records.count <= capacity, nextSequence - 1 >= records.count,
            records.allSatisfy({ $0.isValid(tabs: tabs) }),
            records.count(where: { $0.code == EventRecord.unpackedCode }) == unpacked.count
        else { return nil }
        self.capacity = capacity
        self.nextSequence = nextSequence
        self.tabs = tabs
        self.records = records
        self.unpacked = unpacked
    }

    public static func == (lhs: EventLog, rhs: EventLog) -> Bool {
        guard lhs.capacity == rhs.capacity, lhs.nextSequence == rhs.nextSequence,
            lhs.records.count == rhs.records.count
        else { return false }
        // Packing depends only on the tab list: with the same list, equal records mean equal events.
        if lhs.tabs == rhs.tabs { return lhs.records == rhs.records && lhs.unpacked == rhs.unpacked }
        return lhs.events == rhs.events
    }

    // MARK: Codable

    private enum CodingKeys: String, CodingKey {
        case capacity, events, droppedCount, nextSequence
    }

    /// The readable form, as the log always had: every event in full.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(capacity: try container.decode(Int.self, forKey: .capacity))
        let events = try container.decode([ContainerEvent].self, forKey: .events)
        let next = try container.decode(Int.self, forKey: .nextSequence)
        guard events.count <= capacity, next - 1 >= events.count,
            events.enumerated().allSatisfy({ $1.sequence == next - events.count + $0 })
        else {
            throw DecodingError.dataCorruptedError(
                forKey: .events, in: container, debugDescription: "event sequence numbers do not match")
        }
        for event in events {
            layout = event.layout
            append(event.kind, at: event.time)
        }
        layout = nil
        nextSequence = next
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(capacity, forKey: .capacity)
        try container.encode(events, forKey: .events)
        try container.encode(droppedCount, forKey: .droppedCount)
        try container.encode(nextSequence, forKey: .nextSequence)
    }
}

// MARK: - Packed records

/// One event in 16 bytes: its time, what happened, the tab's position, the source and a flag or
/// a badge count. Events that cannot be said this way are `unpackedCode` records.
struct EventRecord: Equatable, Sendable {
    var time: Double
    var code: UInt8
    var tab: UInt8
    var source: UInt8
    /// Bit 0: `shouldSelect` or the guard allowed; bits 1 and 2: the layout (see `layout`).
    var flags: UInt8
    /// A visible count badge's count.
    var argument: Int32

    static let unpackedCode: UInt8 = 255
    /// The largest position a record can name.
    static let maximumTab = 254

    init(time: Double, code: UInt8, tab: UInt8, source: UInt8, flags: UInt8, argument: Int32) {
        self.time = time
        self.code = code
        self.tab = tab
        self.source = source
        self.flags = flags
        self.argument = argument
    }

    init(unpackedAt time: Double) {
        self.init(time: time, code: Self.unpackedCode, tab: 0, source: 0, flags: 0, argument: 0)
    }

    /// The layout of the request that caused the event, in bits 1 and 2 of `flags` (0: none).
    var layout: Layout? {
        get {
            switch (flags >> 1) & 3 {
            case 1: .vertical
            case 2: .bottom
            case 3: .adaptive
            default: nil
            }
        }
        set {
            let bits: UInt8 =
                switch newValue {
                case .vertical: 1
                case .bottom: 2
                case .adaptive: 3
                case nil: 0
                }
            flags = (flags & ~0b110) | bits << 1
        }
    }

    /// The kinds with a fixed shape, by code.
    enum Shape {
        /// A lifecycle step of one tab, by its code (1 to 16).
        case tabbed(code: UInt8, tabID: String)
        /// A question and its answer (`shouldSelect`, `shouldSelectTab`, the guard), by its code.
        case answered(code: UInt8, tabID: String, source: SelectionSource, allowed: Bool)
        case didSelect(tabID: String, source: SelectionSource)
        case didSelectTab(tabID: String, previousTabID: String?, source: SelectionSource)
        case badgeCount(tabID: String, count: Int32)
        case badgeHidden(tabID: String)
        case other

        init(_ kind: ContainerEventKind) {
            switch kind {
            case .shouldSelect(let tabID, let source, let allowed):
                self = .answered(code: EventRecord.shouldSelectCode, tabID: tabID, source: source, allowed: allowed)
            case .guardChecked(let tabID, let source, let allowed):
                self = .answered(code: EventRecord.guardCode, tabID: tabID, source: source, allowed: allowed)
            case .shouldSelectTab(let tabID, let source, let allowed):
                self = .answered(code: EventRecord.shouldSelectTabCode, tabID: tabID, source: source, allowed: allowed)
            case .didSelect(let tabID, let source): self = .didSelect(tabID: tabID, source: source)
            case .didSelectTab(let tabID, let previous, let source):
                self = .didSelectTab(tabID: tabID, previousTabID: previous, source: source)
            case .badgeChanged(let tabID, .count(let count)?):
                if let small = Int32(exactly: count) {
                    self = .badgeCount(tabID: tabID, count: small)
                } else {
                    self = .other
                }
            case .badgeChanged(let tabID, nil): self = .badgeHidden(tabID: tabID)
            case .childCreated(let tabID): self = .tabbed(code: 1, tabID: tabID)
            case .willMoveToParent(let tabID): self = .tabbed(code: 2, tabID: tabID)
            case .addChild(let tabID): self = .tabbed(code: 3, tabID: tabID)
            case .viewWillAppear(let tabID): self = .tabbed(code: 4, tabID: tabID)
            case .viewAdded(let tabID): self = .tabbed(code: 5, tabID: tabID)
            case .viewDidAppear(let tabID): self = .tabbed(code: 6, tabID: tabID)
            case .willMoveToNoParent(let tabID): self = .tabbed(code: 7, tabID: tabID)
            case .viewWillDisappear(let tabID): self = .tabbed(code: 8, tabID: tabID)
            case .viewRemoved(let tabID): self = .tabbed(code: 9, tabID: tabID)
            case .viewDidDisappear(let tabID): self = .tabbed(code: 10, tabID: tabID)
            case .removeFromParent(let tabID): self = .tabbed(code: 11, tabID: tabID)
            case .didMoveToParent(let tabID): self = .tabbed(code: 12, tabID: tabID)
            case .childDiscarded(let tabID): self = .tabbed(code: 13, tabID: tabID)
            case .poppedToRoot(let tabID): self = .tabbed(code: 14, tabID: tabID)
            case .didMoveToNoParent(let tabID): self = .tabbed(code: 15, tabID: tabID)
            case .viewDidLoad(let tabID): self = .tabbed(code: 16, tabID: tabID)
            case .selectionUnchanged, .pageAction, .badgeChanged, .tabsReplaced, .pushed, .popped, .detailAppearance,
                .detailViewDidLoad,
                .staleAction, .willBeginCustomizing, .tabMoved, .tabHiddenChanged, .arrangementReset,
                .didEndCustomizing, .moreShouldSelect, .moreDidSelect, .moreListAppearance, .moreViewAdded,
                .moreViewRemoved, .morePushed, .morePoppedToRoot, .moreWillShow, .moreDidShow, .willEndCustomizing,
                .willBeginEditing, .displayOrderDidChange, .visibilityDidChange, .didEndEditing:
                self = .other
            }
        }
    }

    static let shouldSelectCode: UInt8 = 20
    static let didSelectCode: UInt8 = 21
    static let badgeCountCode: UInt8 = 22
    static let badgeHiddenCode: UInt8 = 23
    static let guardCode: UInt8 = 24
    static let shouldSelectTabCode: UInt8 = 25
    /// The previous tab's position plus one (0: none) is the argument.
    static let didSelectTabCode: UInt8 = 26

    /// Packs `kind`, or nil when it carries text or names a tab outside `tabs`.
    init?(_ kind: ContainerEventKind, time: Double, tabs: [TabDescription]) {
        func position(_ tabID: String) -> UInt8? {
            guard let index = tabs.firstIndex(where: { $0.id == tabID }), index <= Self.maximumTab else { return nil }
            return UInt8(index)
        }
        switch Shape(kind) {
        case .tabbed(let code, let tabID):
            guard let tab = position(tabID) else { return nil }
            self.init(time: time, code: code, tab: tab, source: 0, flags: 0, argument: 0)
        case .answered(let code, let tabID, let source, let allowed):
            guard let tab = position(tabID) else { return nil }
            self.init(time: time, code: code, tab: tab, source: source.code, flags: allowed ? 1 : 0, argument: 0)
        case .didSelect(let tabID, let source):
            guard let tab = position(tabID) else { return nil }
            self.init(time: time, code: Self.didSelectCode, tab: tab, source: source.code, flags: 0, argument: 0)
        case .didSelectTab(let tabID, let previousTabID, let source):
            guard let tab = position(tabID) else { return nil }
            var previous: Int32 = 0
            if let previousTabID {
                guard let found = position(previousTabID) else { return nil }
                previous = Int32(found) + 1
            }
            self.init(
                time: time, code: Self.didSelectTabCode, tab: tab, source: source.code, flags: 0, argument: previous)
        case .badgeCount(let tabID, let count):
            guard let tab = position(tabID) else { return nil }
            self.init(time: time, code: Self.badgeCountCode, tab: tab, source: 0, flags: 0, argument: count)
        case .badgeHidden(let tabID):
            guard let tab = position(tabID) else { return nil }
            self.init(time: time, code: Self.badgeHiddenCode, tab: tab, source: 0, flags: 0, argument: 0)
        case .other:
            return nil
        }
    }

    /// The event this record stands for; nil for an unpacked record (or one that does not fit `tabs`).
    func kind(tabs: [TabDescription]) -> ContainerEventKind? {
        guard tabs.indices.contains(Int(tab)) else { return nil }
        let tabID = tabs[Int(tab)].id
        switch code {
        case 1: return .childCreated(tabID: tabID)
        case 2: return .willMoveToParent(tabID: tabID)
        case 3: return .addChild(tabID: tabID)
        case 4: return .viewWillAppear(tabID: tabID)
        case 5: return .viewAdded(tabID: tabID)
        case 6: return .viewDidAppear(tabID: tabID)
        case 7: return .willMoveToNoParent(tabID: tabID)
        case 8: return .viewWillDisappear(tabID: tabID)
        case 9: return .viewRemoved(tabID: tabID)
        case 10: return .viewDidDisappear(tabID: tabID)
        case 11: return .removeFromParent(tabID: tabID)
        case 12: return .didMoveToParent(tabID: tabID)
        case 13: return .childDiscarded(tabID: tabID)
        case 14: return .poppedToRoot(tabID: tabID)
        case 15: return .didMoveToNoParent(tabID: tabID)
        case 16: return .viewDidLoad(tabID: tabID)
        case Self.shouldSelectCode:
            guard let source = SelectionSource(code: source) else { return nil }
            return .shouldSelect(tabID: tabID, source: source, allowed: flags & 1 == 1)
        case Self.guardCode:
            guard let source = SelectionSource(code: source) else { return nil }
            return .guardChecked(tabID: tabID, source: source, allowed: flags & 1 == 1)
        case Self.didSelectCode:
            guard let source = SelectionSource(code: source) else { return nil }
            return .didSelect(tabID: tabID, source: source)
        case Self.shouldSelectTabCode:
            guard let source = SelectionSource(code: source) else { return nil }
            return .shouldSelectTab(tabID: tabID, source: source, allowed: flags & 1 == 1)
        case Self.didSelectTabCode:
            guard let source = SelectionSource(code: source), argument >= 0, Int(argument) <= tabs.count else {
                return nil
            }
            let previous = argument == 0 ? nil : tabs[Int(argument) - 1].id
            return .didSelectTab(tabID: tabID, previousTabID: previous, source: source)
        case Self.badgeCountCode: return .badgeChanged(tabID: tabID, badge: .count(Int(argument)))
        case Self.badgeHiddenCode: return .badgeChanged(tabID: tabID, badge: nil)
        default: return nil
        }
    }

    /// Whether a record read from storage names something this list can say.
    func isValid(tabs: [TabDescription]) -> Bool {
        code == Self.unpackedCode || kind(tabs: tabs) != nil
    }
}

extension SelectionSource {
    var code: UInt8 {
        switch self {
        case .tap: 0
        case .url: 1
        case .code: 2
        case .history: 3
        case .moreRow: 4
        }
    }

    init?(code: UInt8) {
        switch code {
        case 0: self = .tap
        case 1: self = .url
        case 2: self = .code
        case 3: self = .history
        case 4: self = .moreRow
        default: return nil
        }
    }
}
