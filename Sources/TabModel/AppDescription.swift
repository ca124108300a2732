/// One app to prototype: its tabs, their pages, and how its container behaves.
///
/// Build one with ``load(json:)``, which checks every rule and reports every problem.
public struct AppDescription: Sendable, Equatable, Codable {
    /// Used in URLs: 1 to 32 characters from `a-z`, `0-9` and `-`.
    public var id: String
    public var name: LocalizedText
    /// `#RRGGBB`, upper- or lower-case as written.
    public var tint: String
    public var defaultLayout: Layout
    public var policies: NavigationPolicies
    /// In bar order; 2 to 12, with unique ids.
    public var tabs: [TabDescription]

    public init(
        id: String, name: LocalizedText, tint: String, defaultLayout: Layout, policies: NavigationPolicies,
        tabs: [TabDescription]
    ) {
        self.id = id
        self.name = name
        self.tint = tint
        self.defaultLayout = defaultLayout
        self.policies = policies
        self.tabs = tabs
    }

    /// The tab with this id, if any.
    public func tab(id: String) -> TabDescription? {
        tabs.first { $0.id == id }
    }

    /// The position of the tab with this id in the bar, if any.
    public func index(ofTab id: String) -> Int? {
        tabs.firstIndex { $0.id == id }
    }

    /// The tint as red, green and blue components (0 to 255), or nil if it is not `#RRGGBB`.
    public var tintComponents: (red: UInt8, green: UInt8, blue: UInt8)? {
        var utf8 = tint.utf8.makeIterator()
        guard utf8.next() == UInt8(ascii: "#") else { return nil }
        var values: (UInt8, UInt8, UInt8) = (0, 0, 0)
        for component in 0..<3 {
            guard let high = utf8.next().flatMap(Self.hexValue), let low = utf8.next().flatMap(Self.hexValue) else {
                return nil
            }
            let value = high << 4 | low
            switch component {
            case 0: values.0 = value
            case 1: values.1 = value
            default: values.2 = value
            }
        }
        guard utf8.next() == nil else { return nil }
        return (values.0, values.1, values.2)
    }

    /// One hexadecimal digit's value (either case), as `UInt8(_:radix: 16)` reads it.
    private static func hexValue(_ digit: UInt8) -> UInt8? {
        switch digit {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): digit - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): digit - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): digit - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}

/// Where the tab bar sits.
public enum Layout: String, Sendable, Equatable, Codable, CaseIterable {
    /// A left column of cells, after FSVerticalTabBarController.
    case vertical
    /// A bar along the bottom, as UITabBarController and the restaurant seed.
    case bottom
}

/// What happens to a child page when another tab is selected.
public enum ChildRetention: String, Sendable, Equatable, Codable, CaseIterable {
    /// The child is created once and keeps its page state for the whole session.
    case keepAlive
    /// The child and its page state are discarded; the next visit starts fresh.
    case detach
}

/// What tapping the already selected tab does.
public enum ReselectBehaviour: String, Sendable, Equatable, Codable, CaseIterable {
    /// Nothing, as both seeds.
    case nothing
    /// Back to the tab's initial page state, as UITabBarController pops to the root.
    case popToRoot
}

/// The container's behaviour; the seeds and UIKit differ here.
public struct NavigationPolicies: Sendable, Equatable, Codable {
    public var childRetention: ChildRetention
    /// Whether `didSelect` is recorded when code (not the visitor) changes the selection.
    public var didSelectForProgrammaticSelection: Bool
    public var reselect: ReselectBehaviour

    public init(childRetention: ChildRetention, didSelectForProgrammaticSelection: Bool, reselect: ReselectBehaviour) {
        self.childRetention = childRetention
        self.didSelectForProgrammaticSelection = didSelectForProgrammaticSelection
        self.reselect = reselect
    }

    /// The seeds' behaviour, and the default of an app description.
    public static let seeds = NavigationPolicies(
        childRetention: .keepAlive, didSelectForProgrammaticSelection: true, reselect: .nothing)
    /// UITabBarController's behaviour.
    public static let uiKit = NavigationPolicies(
        childRetention: .keepAlive, didSelectForProgrammaticSelection: false, reselect: .popToRoot)
}

/// One tab: its bar item and its page.
public struct TabDescription: Sendable, Equatable, Codable {
    /// Used in URLs: 1 to 32 characters from `a-z`, `0-9` and `-`.
    public var id: String
    public var title: LocalizedText
    public var icon: TabIcon
    /// Selecting the tab, or acting on its page, needs a logged-in visitor.
    public var requiresLogin: Bool
    /// The badge shown before any action changes it (news pages derive theirs instead).
    public var initialBadge: Badge?
    public var page: PageDescription

    public init(
        id: String, title: LocalizedText, icon: TabIcon, requiresLogin: Bool = false, initialBadge: Badge? = nil,
        page: PageDescription
    ) {
        self.id = id
        self.title = title
        self.icon = icon
        self.requiresLogin = requiresLogin
        self.initialBadge = initialBadge
        self.page = page
    }
}

/// A tab's icon: one of the built-in set, or inline SVG path data in a 24 x 24 box.
public enum TabIcon: Sendable, Equatable, Codable {
    case builtIn(BuiltInIcon)
    /// SVG path data, stored as written; the icon catalog parses it.
    case path(data: String, fillRule: FillRule)
}

/// The icons the catalog draws by name.
public enum BuiltInIcon: String, Sendable, Equatable, Codable, CaseIterable {
    case home, search, wallet, news, person, inbox, star, settings, bell, chart
}

/// How overlapping subpaths of inline path data are filled.
public enum FillRule: String, Sendable, Equatable, Codable, CaseIterable {
    case nonzero, evenodd
}

/// A tab's badge: a count or a short text.
public enum Badge: Sendable, Equatable, Codable {
    case count(Int)
    case text(String)

    /// What the bar shows, or nil when the badge is hidden (a count of zero or less, an empty text).
    public var label: String? {
        switch self {
        case .count(let count): count > 0 ? (count > 99 ? "99+" : String(count)) : nil
        case .text(let text): text.isEmpty ? nil : text
        }
    }

    public var isVisible: Bool { label != nil }
}
