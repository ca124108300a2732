import Foundation

@testable import TabModel

let startTime = Date(timeIntervalSince1970: 1_700_000_000)

func text(_ english: String) -> LocalizedText { LocalizedText(en: english, zhHant: english + "（中）") }

func counterTab(_ id: String, requiresLogin: Bool = false, badge: Badge? = nil) -> TabDescription {
    TabDescription(
        id: id, title: text(id.capitalized), icon: .builtIn(.star), requiresLogin: requiresLogin, initialBadge: badge,
        page: PageDescription(content: .counter(CounterPage(label: text("Count"), start: 0, maximum: 3))))
}

func newsTab(_ id: String, itemIDs: [String]) -> TabDescription {
    let items = itemIDs.map { PageItem(id: $0, title: text($0), detail: text("body")) }
    return TabDescription(
        id: id, title: text(id), icon: .builtIn(.news), page: PageDescription(content: .news(items: items)))
}

func makeApp(
    _ tabs: [TabDescription], policies: NavigationPolicies = .seed004, id: String = "test"
) -> AppDescription {
    AppDescription(id: id, name: text("Test"), tint: "#112233", defaultLayout: .bottom, policies: policies, tabs: tabs)
}

extension NavigationPolicies {
    /// The preset's controller with `detach`: each child dropped with its state when left.
    static func detached(_ preset: PolicyPreset) -> NavigationPolicies {
        var policies = NavigationPolicies(preset: preset)
        policies.childRetention = .detach
        return policies
    }
}

/// Home, Wallet, Member (login only), as counters.
func threeTabApp(_ policies: NavigationPolicies = .seed004) -> AppDescription {
    makeApp([counterTab("home"), counterTab("wallet"), counterTab("member", requiresLogin: true)], policies: policies)
}

extension TabContainer {
    /// The kinds of the events recorded after `sequence`.
    func kinds(after sequence: Int = 0) -> [ContainerEventKind] {
        log.events.filter { $0.sequence > sequence }.map(\.kind)
    }

    var lastSequence: Int { log.nextSequence - 1 }

    @discardableResult
    mutating func tap(_ tabID: String, loggedIn: Bool = false, in layout: Layout? = nil) -> SelectionOutcome {
        select(.tab(tabID), source: .tap, isLoggedIn: loggedIn, at: startTime, in: layout)
    }

    /// The bottom bar's More item tapped.
    @discardableResult
    mutating func tapMore() -> MoreOutcome? { selectMore(source: .tap, at: startTime, in: .bottom) }

    /// A row of the bottom bar's More list chosen.
    @discardableResult
    mutating func chooseRow(_ tabID: String, loggedIn: Bool = false) -> SelectionOutcome {
        select(.tab(tabID), source: .moreRow, isLoggedIn: loggedIn, at: startTime, in: .bottom)
    }

    @discardableResult
    mutating func act(_ action: PageAction, on tabID: String, loggedIn: Bool = false) -> PageActionOutcome {
        perform(action, onTab: tabID, isLoggedIn: loggedIn, at: startTime)
    }
}
