/// The kinds of page any app description can use.
public enum PageKind: String, Sendable, Equatable, Codable, CaseIterable {
    /// Static paragraphs only.
    case text
    /// A number the visitor raises and lowers, between 0 and a maximum.
    case counter
    /// A list of items filtered by a query.
    case search
    /// A balance and a top-up form.
    case wallet
    /// Items that can be marked read; the tab's badge is the unread count.
    case news
    /// The logged-in visitor's name (from the session) and a nickname they set.
    case profile
    /// Items the visitor ticks and unticks.
    case checklist
    /// Named switches.
    case settings
    /// The designer's own screen: an image with hotspots (``ScreenPage``).
    case screen
}

/// A tab's page: a heading and paragraphs any kind may have, and the kind's own content.
public struct PageDescription: Sendable, Equatable, Codable {
    public var heading: LocalizedText?
    public var paragraphs: [LocalizedText]
    public var content: PageContent

    public init(heading: LocalizedText? = nil, paragraphs: [LocalizedText] = [], content: PageContent) {
        self.heading = heading
        self.paragraphs = paragraphs
        self.content = content
    }

    public var kind: PageKind { content.kind }
}

/// What a page of each kind holds.
public enum PageContent: Sendable, Equatable, Codable {
    case text
    case counter(CounterPage)
    case search(placeholder: LocalizedText?, items: [PageItem])
    case wallet(WalletPage)
    case news(items: [PageItem])
    case profile
    case checklist(items: [PageItem])
    case settings(toggles: [PageItem])
    case screen(ScreenPage)

    public var kind: PageKind {
        switch self {
        case .text: .text
        case .counter: .counter
        case .search: .search
        case .wallet: .wallet
        case .news: .news
        case .profile: .profile
        case .checklist: .checklist
        case .settings: .settings
        case .screen: .screen
        }
    }

    /// The items of a search, news, checklist or settings page, or a screen page's details (each
    /// an item whose detail screen a hotspot pushes); empty for the other kinds.
    public var items: [PageItem] {
        switch self {
        case .search(_, let items), .news(let items), .checklist(let items), .settings(let items): items
        case .screen(let screen): screen.detailItems
        case .text, .counter, .wallet, .profile: []
        }
    }
}

/// A row of a list page. `detail` is a search result's line or a news item's body;
/// `initiallyOn` starts a checklist item ticked or a setting switched on.
public struct PageItem: Sendable, Equatable, Codable {
    public var id: String
    public var title: LocalizedText
    public var detail: LocalizedText?
    public var initiallyOn: Bool

    public init(id: String, title: LocalizedText, detail: LocalizedText? = nil, initiallyOn: Bool = false) {
        self.id = id
        self.title = title
        self.detail = detail
        self.initiallyOn = initiallyOn
    }
}

public struct CounterPage: Sendable, Equatable, Codable {
    public var label: LocalizedText
    public var start: Int
    public var maximum: Int

    public init(label: LocalizedText, start: Int = 0, maximum: Int = 99) {
        self.label = label
        self.start = start
        self.maximum = maximum
    }
}

public struct WalletPage: Sendable, Equatable, Codable {
    /// Three capital letters, shown next to amounts (`TWD`).
    public var currency: String
    /// The balance in whole units before any top-up.
    public var balance: Int
    /// The largest single top-up.
    public var topUpCap: Int

    /// The balance a top-up may never push past.
    public static let maximumBalance = 10_000_000

    public init(currency: String, balance: Int, topUpCap: Int) {
        self.currency = currency
        self.balance = balance
        self.topUpCap = topUpCap
    }
}
