/// What a visitor has changed on a page; each kind of page has its own.
public enum PageState: Sendable, Equatable, Codable {
    case text
    case counter(count: Int)
    case search(query: String)
    /// `lastTopUp` is the amount of the last accepted top-up, for a confirmation line.
    case wallet(balance: Int, lastTopUp: Int?)
    /// Sorted ids, so equal states encode equally.
    case news(readItemIDs: [String])
    case profile(nickname: String?)
    case checklist(checkedItemIDs: [String])
    case settings(enabledToggleIDs: [String])
    /// A screen page's count (0 when it has none).
    case screen(count: Int)

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
}

/// Something a visitor does on a page. Each kind accepts only its own actions.
public enum PageAction: Sendable, Equatable, Codable, CustomStringConvertible {
    /// Counter pages.
    case increment, decrement
    /// Any page: back to its initial state.
    case reset
    /// Search pages: the text typed in the search box.
    case setQuery(String)
    /// Wallet pages: the amount as typed, checked here so every entry path gives the same reasons.
    case topUp(amount: String)
    /// News pages.
    case markRead(itemID: String)
    case markAllRead
    /// Checklist and settings pages.
    case toggle(itemID: String)
    /// Profile pages.
    case setNickname(String)

    public var description: String {
        switch self {
        case .increment: "increment"
        case .decrement: "decrement"
        case .reset: "reset"
        case .setQuery(let query): "setQuery(\"\(query)\")"
        case .topUp(let amount): "topUp(\"\(amount)\")"
        case .markRead(let itemID): "markRead(\(itemID))"
        case .markAllRead: "markAllRead"
        case .toggle(let itemID): "toggle(\(itemID))"
        case .setNickname(let nickname): "setNickname(\"\(nickname)\")"
        }
    }
}

/// Why a page action changed nothing. Views word it for the visitor (`UIString`); the
/// description is the event log's.
public enum PageActionRefusal: Error, Sendable, Equatable, Codable, CustomStringConvertible {
    case unsupported(action: String, kind: PageKind)
    case counterAtMaximum(Int)
    case counterAtMinimum
    case queryTooLong(maximum: Int)
    case amountMissing
    case amountNotWholeNumber(String)
    case amountNotPositive
    case amountOverCap(Int)
    case balanceWouldExceed(Int)
    case unknownItem(String)
    case nicknameEmpty
    case nicknameTooLong(maximum: Int)
    /// The tab needs a logged-in visitor.
    case needsLogin(tabTitle: LocalizedText)
    case unknownTab(String)

    public var description: String {
        switch self {
        case .unsupported(let action, let kind): "a \(kind.rawValue) page has no '\(action)'"
        case .counterAtMaximum(let maximum): "at the maximum \(maximum)"
        case .counterAtMinimum: "at zero"
        case .queryTooLong(let maximum): "query over \(maximum) characters"
        case .amountMissing: "no amount"
        case .amountNotWholeNumber(let text): "'\(text)' is not a whole number"
        case .amountNotPositive: "amount not above 0"
        case .amountOverCap(let cap): "amount over the cap \(cap)"
        case .balanceWouldExceed(let maximum): "balance would pass \(maximum)"
        case .unknownItem(let itemID): "no item '\(itemID)'"
        case .nicknameEmpty: "empty nickname"
        case .nicknameTooLong(let maximum): "nickname over \(maximum) characters"
        case .needsLogin: "needs login"
        case .unknownTab(let tabID): "no tab '\(tabID)'"
        }
    }
}

extension PageDescription {
    /// The longest search query accepted.
    public static let maximumQueryLength = 100
    /// The longest nickname accepted.
    public static let maximumNicknameLength = 30

    /// The state of a freshly created page.
    public var initialState: PageState {
        switch content {
        case .text: .text
        case .counter(let counter): .counter(count: counter.start)
        case .search: .search(query: "")
        case .wallet(let wallet): .wallet(balance: wallet.balance, lastTopUp: nil)
        case .news: .news(readItemIDs: [])
        case .profile: .profile(nickname: nil)
        case .checklist(let items): .checklist(checkedItemIDs: items.filter(\.initiallyOn).map(\.id).sorted())
        case .settings(let toggles): .settings(enabledToggleIDs: toggles.filter(\.initiallyOn).map(\.id).sorted())
        case .screen(let screen): .screen(count: screen.counter?.start ?? 0)
        }
    }

    /// Whether this is a screen page with a count (its tab's badge).
    public var hasScreenCounter: Bool {
        if case .screen(let screen) = content { screen.counter != nil } else { false }
    }

    /// The badge this page's state dictates, or nil when the kind leaves badges alone.
    /// A news page's badge is its unread count; a screen page's with a counter, its count.
    public func derivedBadge(for state: PageState) -> Badge? {
        switch (content, state) {
        case (.news(let items), .news(let read)): .count(items.count { !read.contains($0.id) })
        case (.screen(let screen), .screen(let count)) where screen.counter != nil: .count(count)
        default: nil
        }
    }

    /// The items of a search page matching `query`: every item when the query is blank, otherwise
    /// those whose title or detail contains it in any language, ignoring case.
    public func searchResults(for query: String) -> [PageItem] {
        let needle = query.trimmingSpaces.lowercased()
        guard case .search(_, let items) = content, !needle.isEmpty else { return content.items }
        return items.filter { item in
            let texts = Array(item.title.translations.values) + Array(item.detail?.translations.values ?? [:].values)
            return texts.contains { $0.lowercased().contains(needle) }
        }
    }

    /// Applies a visitor's action to this page's state; pure, and every refusal says why.
    public func apply(_ action: PageAction, to state: PageState) -> Result<PageState, PageActionRefusal> {
        let unsupported = PageActionRefusal.unsupported(action: action.description, kind: kind)
        switch (content, state, action) {
        case (.counter(let counter), .counter(let count), .increment):
            return count < counter.maximum
                ? .success(.counter(count: count + 1)) : .failure(.counterAtMaximum(counter.maximum))
        case (.counter, .counter(let count), .decrement):
            return count > 0 ? .success(.counter(count: count - 1)) : .failure(.counterAtMinimum)
        case (.screen(let screen), .screen(let count), .increment) where screen.counter != nil:
            let maximum = screen.counter?.maximum ?? 0
            return count < maximum ? .success(.screen(count: count + 1)) : .failure(.counterAtMaximum(maximum))
        case (.screen(let screen), .screen(let count), .decrement) where screen.counter != nil:
            return count > 0 ? .success(.screen(count: count - 1)) : .failure(.counterAtMinimum)
        case (_, _, .reset):
            return .success(initialState)
        case (.search, .search, .setQuery(let query)):
            guard query.count <= Self.maximumQueryLength else {
                return .failure(.queryTooLong(maximum: Self.maximumQueryLength))
            }
            return .success(.search(query: query))
        case (.wallet(let wallet), .wallet(let balance, _), .topUp(let typed)):
            return Self.validatedTopUp(typed, cap: wallet.topUpCap, balance: balance).map {
                .wallet(balance: balance + $0, lastTopUp: $0)
            }
        case (.news(let items), .news(let read), .markRead(let itemID)):
            guard items.contains(where: { $0.id == itemID }) else { return .failure(.unknownItem(itemID)) }
            return .success(.news(readItemIDs: Array(Set(read).union([itemID])).sorted()))
        case (.news(let items), .news, .markAllRead):
            return .success(.news(readItemIDs: items.map(\.id).sorted()))
        case (.checklist(let items), .checklist(let checked), .toggle(let itemID)):
            return Self.toggled(itemID, in: checked, items: items).map { .checklist(checkedItemIDs: $0) }
        case (.settings(let toggles), .settings(let enabled), .toggle(let itemID)):
            return Self.toggled(itemID, in: enabled, items: toggles).map { .settings(enabledToggleIDs: $0) }
        case (.profile, .profile, .setNickname(let typed)):
            let nickname = typed.trimmingSpaces
            guard !nickname.isEmpty else { return .failure(.nicknameEmpty) }
            guard nickname.count <= Self.maximumNicknameLength else {
                return .failure(.nicknameTooLong(maximum: Self.maximumNicknameLength))
            }
            return .success(.profile(nickname: nickname))
        default:
            return .failure(unsupported)
        }
    }

    private static func validatedTopUp(_ typed: String, cap: Int, balance: Int) -> Result<Int, PageActionRefusal> {
        let text = typed.trimmingSpaces
        guard !text.isEmpty else { return .failure(.amountMissing) }
        let isSigned = text.first == "-" || text.first == "+"
        let digits = isSigned ? text.dropFirst() : Substring(text)
        guard !digits.isEmpty, digits.allSatisfy({ $0.isASCII && $0.isNumber }) else {
            return .failure(.amountNotWholeNumber(text))
        }
        // Digits too long for Int are certainly over the cap.
        guard let amount = Int(text) else {
            return .failure(text.first == "-" ? .amountNotPositive : .amountOverCap(cap))
        }
        guard amount > 0 else { return .failure(.amountNotPositive) }
        guard amount <= cap else { return .failure(.amountOverCap(cap)) }
        guard balance + amount <= WalletPage.maximumBalance else {
            return .failure(.balanceWouldExceed(WalletPage.maximumBalance))
        }
        return .success(amount)
    }

    private static func toggled(_ itemID: String, in chosen: [String], items: [PageItem]) -> Result<
        [String], PageActionRefusal
    > {
        guard items.contains(where: { $0.id == itemID }) else { return .failure(.unknownItem(itemID)) }
        var set = Set(chosen)
        if set.remove(itemID) == nil { set.insert(itemID) }
        return .success(set.sorted())
    }
}

extension String {
    /// Without leading and trailing whitespace; kept here so the module needs no Foundation.
    var trimmingSpaces: String {
        let characters = Array(self)
        guard let first = characters.firstIndex(where: { !$0.isWhitespace }),
            let last = characters.lastIndex(where: { !$0.isWhitespace })
        else { return "" }
        return String(characters[first...last])
    }
}
