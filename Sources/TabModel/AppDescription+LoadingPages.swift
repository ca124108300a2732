// Pages and the content of each kind.
extension DescriptionValidator {
    mutating func parsePage(_ value: JSONValue, at path: String) -> PageDescription? {
        guard case .object(let list) = value else {
            typeMismatch(path, expected: "an object", found: value)
            return nil
        }
        let kinds = PageKind.allCases.map(\.rawValue).joined(separator: ", ")
        guard let kindValue = list.first(where: { $0.key == "kind" })?.value else {
            report("\(path).kind", "missing required key 'kind'; expected one of \(kinds)")
            return nil
        }
        guard let kind = choice(kindValue, at: "\(path).kind", "page kind", PageKind.self) else { return nil }
        let common = ["kind", "heading", "paragraphs"]
        let own: [String] =
            switch kind {
            case .text, .profile: []
            case .counter: ["label", "start", "maximum"]
            case .search: ["placeholder", "items"]
            case .wallet: ["currency", "balance", "topUpCap"]
            case .news, .checklist: ["items"]
            case .settings: ["toggles"]
            case .screen: Self.screenPageKeys
            }
        guard let members = members(value, at: path, allowed: common + own) else { return nil }
        let heading = optionalText(
            members, "heading", what: "a heading", maximumLength: AppDescription.Limits.headingLength)
        let paragraphs = members.values["paragraphs"].map { parseParagraphs($0, at: members.path("paragraphs")) } ?? []
        let content = pageContent(kind, members)
        guard let heading, let paragraphs, let content else { return nil }
        return PageDescription(heading: heading, paragraphs: paragraphs, content: content)
    }

    mutating func parseParagraphs(_ value: JSONValue, at path: String) -> [LocalizedText]? {
        guard let elements = array(value, at: path) else { return nil }
        if elements.count > AppDescription.Limits.paragraphCount {
            report(path, "\(elements.count) paragraphs; a page has at most \(AppDescription.Limits.paragraphCount)")
            return nil
        }
        let texts = elements.enumerated().map { index, element in
            localizedText(
                element, at: "\(path)[\(index)]", what: "a paragraph",
                maximumLength: AppDescription.Limits.paragraphLength)
        }
        return texts.contains(nil) ? nil : texts.compactMap { $0 }
    }

    mutating func pageContent(_ kind: PageKind, _ members: Members) -> PageContent? {
        switch kind {
        case .text: return .text
        case .profile: return .profile
        case .counter: return parseCounter(members)
        case .wallet: return parseWallet(members)
        case .search:
            var placeholder: LocalizedText?? = .some(nil)
            if let value = members.values["placeholder"] {
                placeholder = localizedText(
                    value, at: members.path("placeholder"), what: "a placeholder",
                    maximumLength: AppDescription.Limits.headingLength
                ).map(Optional.some)
            }
            let items = required(members, "items").flatMap {
                parseItems($0, at: members.path("items"), detailKey: "detail")
            }
            guard let placeholder, let items else { return nil }
            return .search(placeholder: placeholder, items: items)
        case .news:
            return required(members, "items").flatMap { parseItems($0, at: members.path("items"), detailKey: "body") }
                .map { .news(items: $0) }
        case .checklist:
            return required(members, "items").flatMap {
                parseItems($0, at: members.path("items"), switchKey: "checked")
            }
            .map { .checklist(items: $0) }
        case .settings:
            return required(members, "toggles").flatMap { parseItems($0, at: members.path("toggles"), switchKey: "on") }
                .map { .settings(toggles: $0) }
        case .screen:
            return parseScreenPage(members)
        }
    }

    mutating func parseCounter(_ members: Members) -> PageContent? {
        let limits = AppDescription.Limits.self
        let label = required(members, "label").flatMap {
            localizedText($0, at: members.path("label"), what: "a label", maximumLength: limits.headingLength)
        }
        var maximum: Int? = 99
        if let value = members.values["maximum"] {
            maximum = integer(value, at: members.path("maximum"), in: limits.counterMaximum)
        }
        var start: Int? = 0
        if let value = members.values["start"] {
            start = integer(value, at: members.path("start"), in: 0...limits.counterMaximum.upperBound)
        }
        if let startValue = start, let maximumValue = maximum, startValue > maximumValue {
            report(members.path("start"), "\(startValue) is above the maximum \(maximumValue)")
            start = nil
        }
        guard let label, let start, let maximum else { return nil }
        return .counter(CounterPage(label: label, start: start, maximum: maximum))
    }

    mutating func parseWallet(_ members: Members) -> PageContent? {
        let limits = AppDescription.Limits.self
        let currencyPath = members.path("currency")
        var currency = required(members, "currency").flatMap { string($0, at: currencyPath) }
        if let code = currency,
            !(code.unicodeScalars.count == 3 && code.unicodeScalars.allSatisfy { ("A"..."Z").contains($0) })
        {
            report(currencyPath, "'\(code)' is not a currency code; expected three capital letters, such as TWD")
            currency = nil
        }
        let balance = required(members, "balance").flatMap {
            integer($0, at: members.path("balance"), in: limits.walletBalance)
        }
        let cap = required(members, "topUpCap").flatMap {
            integer($0, at: members.path("topUpCap"), in: limits.walletTopUpCap)
        }
        guard let currency, let balance, let cap else { return nil }
        return .wallet(WalletPage(currency: currency, balance: balance, topUpCap: cap))
    }

    /// A list of items; `detailKey` names a required text (`detail`, `body`), `switchKey` an optional flag.
    mutating func parseItems(
        _ value: JSONValue, at path: String, detailKey: String? = nil, switchKey: String? = nil
    )
        -> [PageItem]?
    {
        let limits = AppDescription.Limits.self
        guard let elements = array(value, at: path) else { return nil }
        var isValid = true
        if !limits.itemCount.contains(elements.count) {
            report(
                path,
                "\(elements.count) items; a page has \(limits.itemCount.lowerBound) to \(limits.itemCount.upperBound)")
            isValid = false
        }
        var items: [PageItem] = []
        var firstIndexByID: [String: Int] = [:]
        for (index, element) in elements.enumerated() {
            let itemPath = "\(path)[\(index)]"
            let keys = ["id", "title"] + [detailKey, switchKey].compactMap { $0 }
            guard let members = members(element, at: itemPath, allowed: keys) else {
                isValid = false
                continue
            }
            let id = required(members, "id").flatMap { identifier($0, at: members.path("id")) }
            let title = required(members, "title").flatMap {
                localizedText(
                    $0, at: members.path("title"), what: "an item title", maximumLength: limits.itemTitleLength)
            }
            var detail: LocalizedText?? = .some(nil)
            if let detailKey {
                detail = required(members, detailKey).flatMap {
                    localizedText(
                        $0, at: members.path(detailKey), what: "an item's \(detailKey)",
                        maximumLength: limits.itemDetailLength)
                }.map(Optional.some)
            }
            var isOn: Bool? = false
            if let switchKey, let value = members.values[switchKey] { isOn = bool(value, at: members.path(switchKey)) }
            if let id {
                if let earlier = firstIndexByID[id] {
                    report(members.path("id"), "duplicate item id '\(id)'; \(path)[\(earlier)] has it already")
                    isValid = false
                } else {
                    firstIndexByID[id] = index
                }
            }
            guard let id, let title, let detail, let isOn else {
                isValid = false
                continue
            }
            items.append(PageItem(id: id, title: title, detail: detail, initiallyOn: isOn))
        }
        return isValid ? items : nil
    }
}
