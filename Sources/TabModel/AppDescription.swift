import Colour

/// One app to prototype: its tabs, their pages, and how its container behaves.
///
/// Build one with ``load(json:)``, which checks every rule and reports every problem.
///
/// A value, kept in one shared object: every container and page context holds the app it
/// shows, and a copy of the app is that object shared, not its fields copied one by one. A
/// change makes a new object (apps change when loaded, never while a page is served).
public struct AppDescription: Sendable, Equatable {
    // Inlinable reads, so that a page reads a field in place (no retain of what it reads).
    @usableFromInline var shared: Shared

    /// The fields of one version of an app, shared by its copies and never changed.
    @usableFromInline final class Shared: Sendable {
        @usableFromInline let fields: Fields

        init(_ fields: Fields) { self.fields = fields }
    }

    @usableFromInline struct Fields: Sendable, Equatable {
        @usableFromInline var id: String
        @usableFromInline var name: LocalizedText
        @usableFromInline var languages: [String]
        @usableFromInline var tint: String
        @usableFromInline var defaultLayout: Layout
        @usableFromInline var iconStyle: IconStyle
        @usableFromInline var policies: NavigationPolicies
        @usableFromInline var hidesBottomBarWhenPushed: Bool
        @usableFromInline var tabs: [TabDescription]
        @usableFromInline var sections: [TabSectionDescription]
        @usableFromInline var defaultOrder: [Int]
        @usableFromInline var customizableTabIDs: [String]
        @usableFromInline var showsDemos: Bool
        @usableFromInline var textTint: String? = nil
        /// Each drawn icon's content version by tab id, and the More item's (see `iconVersion(of:)`).
        @usableFromInline var iconVersions: [String: String] = [:]
        @usableFromInline var moreIconVersion = ""
    }

    /// Used in URLs: 1 to 32 characters from `a-z`, `0-9` and `-`.
    public var id: String {
        @inlinable get { shared.fields.id }
        set { change { $0.id = newValue } }
    }
    public var name: LocalizedText {
        @inlinable get { shared.fields.name }
        set { change { $0.name = newValue } }
    }
    /// The language tags every text of the app is written in, in the order the file declares them
    /// (its language switch's order); never empty.
    public var languages: [String] {
        @inlinable get { shared.fields.languages }
        set { change { $0.languages = newValue } }
    }
    /// `#RRGGBB`, upper- or lower-case as written.
    public var tint: String {
        @inlinable get { shared.fields.tint }
        set { change { $0.tint = newValue } }
    }
    /// `#RRGGBB`: the colour of text in the tint (links, the selected tab's title, button faces)
    /// when the author chooses it; nil lets the pages darken the tint until it reads.
    public var textTint: String? {
        @inlinable get { shared.fields.textTint }
        set { change { $0.textTint = newValue } }
    }
    /// The background text in the tint must read on: the vertical bar's selected cell, the
    /// darkest of the light appearance's (`.tab-bar-vertical .tab[aria-current]` in
    /// Public/css/tabstage.css); the page and the bars are lighter.
    public static let textBackground = RGBColor(red: 0xEC, green: 0xEC, blue: 0xF1)
    /// WCAG 2's contrast for text (and white text on a button face).
    public static let textContrast = 4.5
    public var defaultLayout: Layout {
        @inlinable get { shared.fields.defaultLayout }
        set { change { $0.defaultLayout = newValue } }
    }
    /// How the selected tab's icon is drawn.
    public var iconStyle: IconStyle {
        @inlinable get { shared.fields.iconStyle }
        set { change { $0.iconStyle = newValue } }
    }
    public var policies: NavigationPolicies {
        @inlinable get { shared.fields.policies }
        set { change { $0.policies = newValue } }
    }
    /// Whether the bar hides while a detail screen is pushed in any tab (a tab may say otherwise).
    public var hidesBottomBarWhenPushed: Bool {
        @inlinable get { shared.fields.hidesBottomBarWhenPushed }
        set { change { $0.hidesBottomBarWhenPushed = newValue } }
    }
    /// Whether `serve --app` of this app's file serves the built-in demos beside it (false: the
    /// file's own `"showsDemos": false`, as `--no-demos` would).
    public var showsDemos: Bool {
        @inlinable get { shared.fields.showsDemos }
        set { change { $0.showsDemos = newValue } }
    }
    /// 2 to 12, with unique ids; without sections, in bar order (see ``defaultOrder``).
    public var tabs: [TabDescription] {
        @inlinable get { shared.fields.tabs }
        set { change { $0.tabs = newValue } }
    }
    /// Titled groups of tabs (SwiftUI's `TabSection`, UIKit's `UITabGroup`); each tab in at most one.
    public var sections: [TabSectionDescription] {
        @inlinable get { shared.fields.sections }
        set { change { $0.sections = newValue } }
    }
    /// The order the tabs are shown in before a visitor changes it, as positions in `tabs`: the
    /// tabs in no section, then each section's. Worked out when `tabs` or `sections` change, not
    /// when a bar is drawn (every page reads it).
    @inlinable public var defaultOrder: [Int] { shared.fields.defaultOrder }
    /// The ids of the tabs a visitor may move (UIKit's `customizableViewControllers`), in `tabs` order.
    public var customizableTabIDs: [String] {
        @inlinable get { shared.fields.customizableTabIDs }
        set { change { $0.customizableTabIDs = newValue } }
    }

    public init(
        id: String, name: LocalizedText, languages: [String] = AppDescription.demoLanguages, tint: String,
        defaultLayout: Layout, iconStyle: IconStyle = .glow,
        policies: NavigationPolicies, hidesBottomBarWhenPushed: Bool = false, tabs: [TabDescription],
        sections: [TabSectionDescription] = [], customizableTabIDs: [String] = [], showsDemos: Bool = true
    ) {
        var fields = Fields(
            id: id, name: name, languages: languages, tint: tint, defaultLayout: defaultLayout, iconStyle: iconStyle,
            policies: policies,
            hidesBottomBarWhenPushed: hidesBottomBarWhenPushed, tabs: tabs, sections: sections,
            defaultOrder: Self.defaultOrder(of: tabs, sections: sections), customizableTabIDs: customizableTabIDs,
            showsDemos: showsDemos)
        Self.workOutIconVersions(&fields)
        shared = Shared(fields)
    }

    /// A new shared object with the change made, and the default order worked out again.
    private mutating func change(_ body: (inout Fields) -> Void) {
        var fields = shared.fields
        body(&fields)
        fields.defaultOrder = Self.defaultOrder(of: fields.tabs, sections: fields.sections)
        Self.workOutIconVersions(&fields)
        shared = Shared(fields)
    }

    /// Two copies of one app are equal without comparing their fields.
    public static func == (left: AppDescription, right: AppDescription) -> Bool {
        left.shared === right.shared || left.shared.fields == right.shared.fields
    }

    /// Whether the bar hides while the tab at `position` shows a pushed detail screen.
    public func hidesBar(whenPushedOnTabAt position: Int) -> Bool {
        tabs[position].hidesBottomBarWhenPushed ?? hidesBottomBarWhenPushed
    }

    /// The tab with this id, if any.
    public func tab(id: String) -> TabDescription? {
        tabs.first { $0.id == id }
    }

    /// The position of the tab with this id in the bar, if any.
    public func index(ofTab id: String) -> Int? {
        tabs.firstIndex { $0.id == id }
    }

    /// The languages of an app built in code without saying them: the built-in demos'.
    public static let demoLanguages = ["en", "zh-Hant"]

    /// The language a page of the app opens in when the visitor asks for none of its languages.
    @inlinable public var defaultLanguage: String { languages.first ?? LocalizedText.fallbackLanguage }

    /// The language the app's texts show in on a page in `tag` about several apps (the start
    /// page, `/icons`): `tag` when the app is written in it, else its default.
    public func shownLanguage(onAPageIn tag: String) -> String {
        languages.contains(tag) ? tag : defaultLanguage
    }

    /// The tint as a colour, or nil if it is not `#RRGGBB` (the loader refuses those).
    public var tintColor: RGBColor? { Self.colour(tint) }

    /// `textTint` as a colour, nil when none is chosen.
    public var textTintColor: RGBColor? { textTint.flatMap(Self.colour) }

    /// A colour of the file as written (`#RRGGBB`), nil for any other text.
    private static func colour(_ text: String) -> RGBColor? {
        text.utf8.first == UInt8(ascii: "#") ? RGBColor(hex: text) : nil
    }
}

/// Where the tab bar sits.
public enum Layout: String, Sendable, Equatable, Codable, CaseIterable {
    /// A left column of cells, after FSVerticalTabBarController.
    case vertical
    /// A bar along the bottom, as UITabBarController and the restaurant seed.
    case bottom
    /// iOS 18's adaptive tab view (`.sidebarAdaptable`, `mode = .tabSidebar`): a bottom bar on
    /// narrow windows and a sidebar with the app's sections on wide ones, from the same page.
    case adaptive
}

/// How the selected tab's icon is drawn (an unselected icon is a flat grey fill either way).
public enum IconStyle: String, Sendable, Equatable, Codable, CaseIterable {
    /// The seeds' gradient glow in the tint, with its gloss and drop shadow (docs/glow.md).
    case glow
    /// A flat fill in the tint, as iOS draws a selected tab since iOS 7.
    case tinted
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
    /// Nothing, as both seeds (`newValue != selectedIndex`).
    case nothing
    /// The tab's navigation stack is popped to its root screen, which keeps its state, as
    /// UITabBarController does.
    case popToRoot
}

/// The controller whose calls the container makes and logs: when children are added and
/// removed, which appearance callbacks a switch produces, and which delegate calls exist.
/// docs/container.md lists each one's event sequences.
public enum PolicyPreset: String, Sendable, Equatable, Codable, CaseIterable {
    /// UITabBarController: owns every child from the moment the tabs are set; a switch swaps
    /// views with appearance callbacks; `shouldSelect` and `didSelect` for taps only.
    case uikit
    /// The Swift port of FSVerticalTabBarController (seed 000): its children are made with it and
    /// kept; `selectedIndex`'s setter adds the new child and removes the old one; `shouldSelect`
    /// for taps, `didSelect` on every change.
    case fsVertical
    /// The restaurant app's bottom bar (seed 004): each child added once, on first display, its
    /// view put on top and the old one never removed; no delegate.
    case seed004
    /// UITabBarController on iOS 18 with its `UITab` API (the adaptive layout's default): UIKit's
    /// containment and More, told with iOS 18's delegate calls (`shouldSelectTab`,
    /// `didSelectTab(_:previousTab:)`, the editing calls).
    case uikit18

    /// Whether the preset is UITabBarController, of either API.
    public var isUIKit: Bool { self == .uikit || self == .uikit18 }
}

/// The container's behaviour: a preset and the keys that may differ from it.
public struct NavigationPolicies: Sendable, Equatable, Codable {
    public var preset: PolicyPreset
    public var childRetention: ChildRetention
    /// Whether `didSelect` is recorded when a selection is not a tap (a URL, back/forward, code).
    public var didSelectForProgrammaticSelection: Bool
    public var reselect: ReselectBehaviour

    public init(
        preset: PolicyPreset, childRetention: ChildRetention, didSelectForProgrammaticSelection: Bool,
        reselect: ReselectBehaviour
    ) {
        self.preset = preset
        self.childRetention = childRetention
        self.didSelectForProgrammaticSelection = didSelectForProgrammaticSelection
        self.reselect = reselect
    }

    /// Every key as the preset's controller has it.
    public init(preset: PolicyPreset) {
        switch preset {
        case .uikit, .uikit18:
            self.init(
                preset: preset, childRetention: .keepAlive, didSelectForProgrammaticSelection: false,
                reselect: .popToRoot)
        case .fsVertical:
            self.init(
                preset: preset, childRetention: .keepAlive, didSelectForProgrammaticSelection: true,
                reselect: .nothing)
        case .seed004:
            self.init(
                preset: preset, childRetention: .keepAlive, didSelectForProgrammaticSelection: false,
                reselect: .nothing)
        }
    }

    /// UITabBarController's behaviour, and the default of an app description.
    public static let uiKit = NavigationPolicies(preset: .uikit)
    /// Seed 000's vertical container.
    public static let fsVertical = NavigationPolicies(preset: .fsVertical)
    /// Seed 004's bottom bar.
    public static let seed004 = NavigationPolicies(preset: .seed004)
    /// UITabBarController with iOS 18's `UITab` API.
    public static let uiKit18 = NavigationPolicies(preset: .uikit18)

    /// Whether the controller has a delegate it asks about taps (`shouldSelect`).
    public var asksDelegateOnTap: Bool { preset != .seed004 }
}

/// One tab: its bar item and its page.
public struct TabDescription: Sendable, Equatable, Codable {
    /// Used in URLs: 1 to 32 characters from `a-z`, `0-9` and `-`.
    public var id: String
    public var title: LocalizedText
    public var icon: TabIcon
    /// Selecting the tab, or acting on its page, needs a logged-in visitor.
    public var requiresLogin: Bool
    /// The badge shown before any action changes it (news pages and bound badges derive theirs instead).
    public var initialBadge: Badge?
    /// A badge derived from the page's state (`"badge": {"from": "count"}`); news pages always derive theirs.
    public var badgeBinding: BadgeBinding?
    /// What a count badge counts ("unread", "pending"), said after the number; nil says nothing
    /// but the number, except on a news page, whose count is of unread items.
    public var badgeLabel: LocalizedText?
    /// Overrides the app's `hidesBottomBarWhenPushed` for this tab; nil follows the app.
    public var hidesBottomBarWhenPushed: Bool?
    /// The visitor may hide the tab (UIKit's `UITab.allowsHiding`).
    public var allowsHiding: Bool
    public var page: PageDescription

    public init(
        id: String, title: LocalizedText, icon: TabIcon, requiresLogin: Bool = false, initialBadge: Badge? = nil,
        badgeBinding: BadgeBinding? = nil, badgeLabel: LocalizedText? = nil, hidesBottomBarWhenPushed: Bool? = nil,
        allowsHiding: Bool = false,
        page: PageDescription
    ) {
        self.allowsHiding = allowsHiding
        self.id = id
        self.title = title
        self.icon = icon
        self.requiresLogin = requiresLogin
        self.initialBadge = initialBadge
        self.badgeBinding = badgeBinding
        self.badgeLabel = badgeLabel
        self.hidesBottomBarWhenPushed = hidesBottomBarWhenPushed
        self.page = page
    }

    /// The badge this tab's page state dictates, or nil when its badge is not derived: a news
    /// page's unread count, a bound counter's count, a screen page's count.
    public func derivedBadge(for state: PageState) -> Badge? {
        switch (badgeBinding, state) {
        case (.count?, .counter(let count)): .count(count)
        default: page.derivedBadge(for: state)
        }
    }

    /// Whether the tab's badge follows its page state.
    public var derivesBadge: Bool { page.kind == .news || badgeBinding != nil || page.hasScreenCounter }
}

/// What a tab's badge is derived from.
public enum BadgeBinding: String, Sendable, Equatable, Codable, CaseIterable {
    /// A counter page's count.
    case count
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
    case people, heart, calendar, clock, chat, mail, phone, map, pin, camera, photo, play, music, book
    case bookmark, cart, bag, card, gift, list, grid, folder, doc, cloud, download, share, plus, compass
    case flame, bolt, leaf, dumbbell
}

/// How overlapping subpaths of inline path data are filled.
public enum FillRule: String, Sendable, Equatable, Codable, CaseIterable {
    case nonzero, evenodd
}

/// A tab's badge: a count or a short text in the visitor's language.
public enum Badge: Sendable, Equatable, Codable {
    case count(Int)
    case text(LocalizedText)

    /// What the bar shows in `language`, or nil when the badge is hidden (a count of zero or
    /// less, an empty text).
    public func label(in language: String) -> String? {
        switch self {
        case .count(let count): return count > 0 ? (count > 99 ? "99+" : String(count)) : nil
        case .text(let text):
            let shown = text.text(in: language)
            return shown.isEmpty ? nil : shown
        }
    }

    /// What the bar shows in English: the event log's and the summaries' language.
    public var label: String? { label(in: LocalizedText.fallbackLanguage) }

    public var isVisible: Bool { label != nil }
}

extension Layout {
    /// The layouts with UIKit's More list (and the edit list under it): the bottom bar, and the
    /// adaptive layout, whose narrow form is one.
    public var hasMoreList: Bool { self != .vertical }
}
