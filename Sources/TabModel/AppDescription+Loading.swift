import Colour

extension AppDescription {
    /// The bounds the loader enforces.
    public enum Limits {
        public static let tabCount = 2...12
        public static let idLength = 1...32
        public static let nameLength = 40
        public static let titleLength = 24
        public static let headingLength = 60
        public static let paragraphLength = 400
        public static let paragraphCount = 20
        public static let itemCount = 1...50
        public static let itemTitleLength = 60
        public static let itemDetailLength = 400
        public static let badgeTextLength = 8
        public static let badgeCount = 0...9999
        public static let badgeLabelLength = 24
        public static let pathDataLength = 8192
        public static let counterMaximum = 1...9999
        public static let walletBalance = 0...1_000_000
        public static let walletTopUpCap = 1...100_000
    }

    /// Parses and checks an app description, reporting every problem at once, in reading order,
    /// each with its line and column. `pathDataProblem` says what is wrong with an icon's path
    /// data (nil when it draws); TabModel keeps path data as text and knows no path parser.
    public static func load(
        json: [UInt8], pathDataProblem: @escaping (String) -> String? = { _ in nil }
    ) -> Result<AppDescription, ValidationReport> {
        let document: JSONDocument
        do {
            document = try JSONParser.parseDocument(json)
        } catch {
            let problem = ValidationProblem(
                path: "$", message: "invalid JSON: \(error.reason)", position: error.position)
            return .failure(ValidationReport(problems: [problem]))
        }
        var validator = DescriptionValidator(document: document, pathDataProblem: pathDataProblem)
        let app = validator.app(document.value)
        if let app, validator.problems.isEmpty { return .success(app) }
        return .failure(ValidationReport(problems: validator.problemsInReadingOrder))
    }

    /// ``load(json:)`` for text.
    public static func load(
        jsonText: String, pathDataProblem: @escaping (String) -> String? = { _ in nil }
    ) -> Result<AppDescription, ValidationReport> {
        load(json: Array(jsonText.utf8), pathDataProblem: pathDataProblem)
    }
}

extension BuiltInIcon {
    /// The icon whose name is fewest edits (insertions, deletions, substitutions) from `name`;
    /// of equally near ones, the first in `allCases`.
    static func nearest(to name: String) -> BuiltInIcon {
        let typed = Array(name.lowercased())
        var best = BuiltInIcon.allCases[0]
        var bestDistance = Int.max
        for icon in BuiltInIcon.allCases {
            let distance = editDistance(typed, Array(icon.rawValue))
            if distance < bestDistance {
                best = icon
                bestDistance = distance
            }
        }
        return best
    }

    private static func editDistance(_ source: [Character], _ target: [Character]) -> Int {
        var previous = Array(0...target.count)
        for (row, sourceCharacter) in source.enumerated() {
            var current = [row + 1]
            for (column, targetCharacter) in target.enumerated() {
                let substitution = previous[column] + (sourceCharacter == targetCharacter ? 0 : 1)
                current.append(min(substitution, previous[column + 1] + 1, current[column] + 1))
            }
            previous = current
        }
        return previous[target.count]
    }
}

/// The members of one JSON object, after duplicate and unknown keys were reported.
private struct Members {
    var path: String
    var values: [String: JSONValue]

    func path(_ key: String) -> String { path.isEmpty ? key : "\(path).\(key)" }
}

/// Walks a parsed description, collecting problems; every function returns nil when it reported one.
private struct DescriptionValidator {
    private(set) var problems: [ValidationProblem] = []
    private let document: JSONDocument
    private let pathDataProblem: (String) -> String?
    /// The id string written in each tab, by index, to name tabs in messages.
    private let writtenTabIDs: [Int: String]

    init(document: JSONDocument, pathDataProblem: @escaping (String) -> String?) {
        self.document = document
        self.pathDataProblem = pathDataProblem
        var ids: [Int: String] = [:]
        if case .object(let members) = document.value,
            case .array(let tabs)? = members.first(where: { $0.key == "tabs" })?.value
        {
            for (index, tab) in tabs.enumerated() {
                if case .object(let fields) = tab,
                    case .string(let id)? = fields.first(where: { $0.key == "id" })?.value
                {
                    ids[index] = id
                }
            }
        }
        writtenTabIDs = ids
    }

    /// The problems sorted by their place in the file; problems at one place keep the order
    /// they were found in.
    var problemsInReadingOrder: [ValidationProblem] {
        problems.enumerated().sorted { left, right in
            let (leftPosition, rightPosition) = (left.element.position, right.element.position)
            if leftPosition != rightPosition, let leftPosition, let rightPosition {
                return leftPosition < rightPosition
            }
            return left.offset < right.offset
        }.map(\.element)
    }

    /// Reports a problem at the value at `path`, its `occurrence`-th when a key is repeated.
    private mutating func report(_ path: String, _ message: String, occurrence: Int = 0) {
        problems.append(
            ValidationProblem(
                path: path.isEmpty ? "$" : path, message: message,
                position: document.position(of: path, occurrence: occurrence), tabID: tabID(in: path)))
    }

    /// The written id of the tab `path` lies in, when it starts with `tabs[N]`.
    private func tabID(in path: String) -> String? {
        guard path.hasPrefix("tabs["), let close = path.firstIndex(of: "]") else { return nil }
        return Int(path[path.index(path.startIndex, offsetBy: 5)..<close]).flatMap { writtenTabIDs[$0] }
    }

    private mutating func typeMismatch(_ path: String, expected: String, found value: JSONValue) {
        report(path, "expected \(expected), found \(value.typeName)")
    }

    // MARK: Generic shapes

    private mutating func members(_ value: JSONValue, at path: String, allowed: [String]) -> Members? {
        guard case .object(let list) = value else {
            typeMismatch(path, expected: "an object", found: value)
            return nil
        }
        var result = Members(path: path, values: [:])
        var occurrences: [String: Int] = [:]
        for member in list {
            let memberPath = result.path(member.key)
            let occurrence = occurrences[member.key, default: 0]
            occurrences[member.key] = occurrence + 1
            if result.values[member.key] != nil {
                report(memberPath, "duplicate key", occurrence: occurrence)
            } else if !allowed.contains(member.key) {
                report(memberPath, "unknown key; expected one of \(allowed.joined(separator: ", "))")
            } else {
                result.values[member.key] = member.value
            }
        }
        return result
    }

    /// The value of a key that must be present (and not null).
    private mutating func required(_ members: Members, _ key: String) -> JSONValue? {
        guard let value = members.values[key], value != .null else {
            report(members.path(key), "missing required key '\(key)'")
            return nil
        }
        return value
    }

    private mutating func string(_ value: JSONValue, at path: String) -> String? {
        guard case .string(let text) = value else {
            typeMismatch(path, expected: "a string", found: value)
            return nil
        }
        return text
    }

    private mutating func bool(_ value: JSONValue, at path: String) -> Bool? {
        guard case .bool(let flag) = value else {
            typeMismatch(path, expected: "a boolean", found: value)
            return nil
        }
        return flag
    }

    private mutating func integer(_ value: JSONValue, at path: String, in range: ClosedRange<Int>) -> Int? {
        guard case .number(let text) = value else {
            typeMismatch(path, expected: "a whole number", found: value)
            return nil
        }
        guard let number = Int(text), range.contains(number) else {
            let kind = text.contains(where: { ".eE".contains($0) }) ? "not a whole number" : "out of range"
            report(path, "\(text) is \(kind); expected a whole number from \(range.lowerBound) to \(range.upperBound)")
            return nil
        }
        return number
    }

    private mutating func array(_ value: JSONValue, at path: String) -> [JSONValue]? {
        guard case .array(let elements) = value else {
            typeMismatch(path, expected: "an array", found: value)
            return nil
        }
        return elements
    }

    private mutating func choice<Choice: RawRepresentable & CaseIterable>(
        _ value: JSONValue, at path: String, _ what: String, _: Choice.Type
    ) -> Choice? where Choice.RawValue == String {
        guard let text = string(value, at: path) else { return nil }
        guard let choice = Choice(rawValue: text) else {
            let choices = Choice.allCases.map(\.rawValue).joined(separator: ", ")
            report(path, "unknown \(what) '\(text)'; expected one of \(choices)")
            return nil
        }
        return choice
    }

    private mutating func identifier(_ value: JSONValue, at path: String) -> String? {
        guard let text = string(value, at: path) else { return nil }
        guard Self.isIdentifier(text) else {
            let limits = AppDescription.Limits.idLength
            report(
                path,
                "'\(text)' is not a valid id; use \(limits.lowerBound) to \(limits.upperBound) characters "
                    + "from a-z, 0-9 and '-' (ids appear in URLs)")
            return nil
        }
        return text
    }

    private mutating func localizedText(_ value: JSONValue, at path: String, what: String, maximumLength: Int)
        -> LocalizedText?
    {
        guard case .object(let list) = value else {
            typeMismatch(
                path, expected: "an object of texts by language, such as {\"en\": ..., \"zh-Hant\": ...}", found: value)
            return nil
        }
        var translations: [String: String] = [:]
        var isValid = true
        var occurrences: [String: Int] = [:]
        for member in list {
            let memberPath = "\(path).\(member.key)"
            let occurrence = occurrences[member.key, default: 0]
            occurrences[member.key] = occurrence + 1
            guard translations[member.key] == nil else {
                report(memberPath, "duplicate key", occurrence: occurrence)
                isValid = false
                continue
            }
            guard isLanguageTag(member.key) else {
                report(memberPath, "'\(member.key)' is not a language tag such as en or zh-Hant")
                isValid = false
                continue
            }
            guard let text = string(member.value, at: memberPath) else {
                isValid = false
                continue
            }
            let length = text.count
            if text.trimmingSpaces.isEmpty {
                report(memberPath, "empty; \(what) needs 1 to \(maximumLength) characters")
                isValid = false
            } else if length > maximumLength {
                report(memberPath, "too long (\(length) characters); \(what) has at most \(maximumLength)")
                isValid = false
            }
            translations[member.key] = text
        }
        for language in LocalizedText.requiredLanguages where translations[language] == nil {
            report(path, "missing '\(language)'")
            isValid = false
        }
        return isValid ? LocalizedText(translations) : nil
    }

    /// The optional text at `key`: `.some(nil)` when absent, nil after a problem.
    private mutating func optionalText(_ members: Members, _ key: String, what: String, maximumLength: Int)
        -> LocalizedText??
    {
        guard let value = members.values[key] else { return .some(nil) }
        return localizedText(value, at: members.path(key), what: what, maximumLength: maximumLength).map(Optional.some)
    }

    static func isIdentifier(_ text: String) -> Bool {
        AppDescription.Limits.idLength.contains(text.count)
            && text.unicodeScalars.allSatisfy { ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "-" }
    }

    private func isLanguageTag(_ key: String) -> Bool {
        let parts = key.split(separator: "-", omittingEmptySubsequences: false)
        guard let primary = parts.first, (2...3).contains(primary.count),
            primary.unicodeScalars.allSatisfy({ ("a"..."z").contains($0) })
        else { return false }
        return parts.dropFirst().allSatisfy { part in
            (1...8).contains(part.count)
                && part.unicodeScalars.allSatisfy {
                    ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0)
                }
        }
    }

    // MARK: The description

    mutating func app(_ document: JSONValue) -> AppDescription? {
        let keys = [
            "id", "name", "tint", "layout", "iconStyle", "policies", "hidesBottomBarWhenPushed", "tabs", "sections",
            "customizable",
        ]
        guard let members = members(document, at: "", allowed: keys) else { return nil }
        let id = required(members, "id").flatMap { identifier($0, at: "id") }
        let name = required(members, "name").flatMap {
            localizedText($0, at: "name", what: "a name", maximumLength: AppDescription.Limits.nameLength)
        }
        let tint = required(members, "tint").flatMap { colour($0, at: "tint") }
        // The layout `/{app}` opens; optional, as most apps are shown behind a bottom bar.
        var layout: Layout? = .bottom
        if let value = members.values["layout"] { layout = choice(value, at: "layout", "layout", Layout.self) }
        var iconStyle: IconStyle? = .glow
        if let value = members.values["iconStyle"] {
            iconStyle = choice(value, at: "iconStyle", "icon style", IconStyle.self)
        }
        // The adaptive layout is iOS 18's: an app whose layout it is speaks iOS 18's delegate unless it says not.
        let preset: PolicyPreset = layout == .adaptive ? .uikit18 : .uikit
        let policies =
            members.values["policies"].map { parsePolicies($0, at: "policies", preset: preset) }
            ?? NavigationPolicies(preset: preset)
        var hidesBar: Bool? = false
        if let value = members.values["hidesBottomBarWhenPushed"] {
            hidesBar = bool(value, at: "hidesBottomBarWhenPushed")
        }
        let tabs = required(members, "tabs").flatMap { parseTabs($0, at: "tabs") }
        let sections: [TabSectionDescription]? =
            members.values["sections"].map { parseSections($0, at: "sections") } ?? []
        let customizable: [String]? =
            members.values["customizable"].map { tabIDList($0, at: "customizable", allowsEmpty: true) } ?? []
        guard let id, let name, let tint, let layout, let iconStyle, let policies, let hidesBar, let tabs,
            let sections,
            let customizable
        else { return nil }
        return AppDescription(
            id: id, name: name, tint: tint, defaultLayout: layout, iconStyle: iconStyle, policies: policies,
            hidesBottomBarWhenPushed: hidesBar, tabs: tabs, sections: sections,
            customizableTabIDs: tabs.map(\.id).filter { customizable.contains($0) })
    }

    /// The tab ids written in `tabs`, whatever else is wrong with the tabs.
    private var knownTabIDs: Set<String> { Set(writtenTabIDs.values) }

    /// `[{"id", "title", "tabs": [ids]}]`: unique section ids, no empty section, every tab known
    /// and in one section at most.
    private mutating func parseSections(_ value: JSONValue, at path: String) -> [TabSectionDescription]? {
        guard let elements = array(value, at: path) else { return nil }
        var sections: [TabSectionDescription] = []
        var isValid = true
        var sectionByID: [String: Int] = [:]
        var sectionByTab: [String: Int] = [:]
        for (index, element) in elements.enumerated() {
            let sectionPath = "\(path)[\(index)]"
            guard let members = members(element, at: sectionPath, allowed: ["id", "title", "tabs"]) else {
                isValid = false
                continue
            }
            let id = required(members, "id").flatMap { identifier($0, at: members.path("id")) }
            if let id, let earlier = sectionByID[id] {
                report(members.path("id"), "duplicate section id '\(id)'; \(path)[\(earlier)] has it already")
                isValid = false
            } else if let id {
                sectionByID[id] = index
            }
            let title = required(members, "title").flatMap {
                localizedText(
                    $0, at: members.path("title"), what: "a title", maximumLength: AppDescription.Limits.titleLength)
            }
            // The known ids of a list with a problem are still checked against the other sections.
            var listed: [(index: Int, id: String)] = []
            let tabIDs = required(members, "tabs").flatMap {
                tabIDList($0, at: members.path("tabs"), allowsEmpty: false, known: &listed)
            }
            for (tabIndex, tabID) in listed {
                if let earlier = sectionByTab[tabID] {
                    report(
                        "\(members.path("tabs"))[\(tabIndex)]",
                        "tab '\(tabID)' is in \(path)[\(earlier)] already; a tab is in one section at most")
                    isValid = false
                } else {
                    sectionByTab[tabID] = index
                }
            }
            guard let id, let title, let tabIDs else {
                isValid = false
                continue
            }
            sections.append(TabSectionDescription(id: id, title: title, tabIDs: tabIDs))
        }
        return isValid ? sections : nil
    }

    /// An array of ids of tabs in `tabs`, each once.
    private mutating func tabIDList(_ value: JSONValue, at path: String, allowsEmpty: Bool) -> [String]? {
        var known: [(index: Int, id: String)] = []
        return tabIDList(value, at: path, allowsEmpty: allowsEmpty, known: &known)
    }

    /// `tabIDList`, with `known` given each id that names a tab once, with its place in the array,
    /// even when others do not.
    private mutating func tabIDList(
        _ value: JSONValue, at path: String, allowsEmpty: Bool, known: inout [(index: Int, id: String)]
    ) -> [String]? {
        guard let elements = array(value, at: path) else { return nil }
        if elements.isEmpty && !allowsEmpty {
            report(path, "empty; a section lists at least one tab")
            return nil
        }
        var isValid = true
        for (index, element) in elements.enumerated() {
            let elementPath = "\(path)[\(index)]"
            guard let id = string(element, at: elementPath) else {
                isValid = false
                continue
            }
            if !knownTabIDs.contains(id) {
                report(elementPath, "unknown tab '\(id)'; expected the id of one of the app's tabs")
                isValid = false
            } else if let earlier = known.first(where: { $0.id == id })?.index {
                report(elementPath, "tab '\(id)' is listed twice; \(path)[\(earlier)] has it already")
                isValid = false
            } else {
                known.append((index, id))
            }
        }
        return isValid ? known.map(\.id) : nil
    }

    private mutating func colour(_ value: JSONValue, at path: String) -> String? {
        guard let text = string(value, at: path) else { return nil }
        guard text.utf8.first == UInt8(ascii: "#"), RGBColor(hex: text) != nil else {
            report(path, "'\(text)' is not a colour; expected #RRGGBB, such as #FF9500")
            return nil
        }
        return text
    }

    /// A preset's name, or an object whose keys each default from its `preset` (itself `preset` by default).
    private mutating func parsePolicies(_ value: JSONValue, at path: String, preset: PolicyPreset)
        -> NavigationPolicies?
    {
        if case .string = value {
            return choice(value, at: path, "policy preset", PolicyPreset.self).map { NavigationPolicies(preset: $0) }
        }
        let keys = ["preset", "childRetention", "didSelectForProgrammaticSelection", "reselect"]
        guard let members = members(value, at: path, allowed: keys) else { return nil }
        var policies = NavigationPolicies(preset: preset)
        var isValid = true
        if let value = members.values["preset"] {
            let preset = choice(value, at: members.path("preset"), "policy preset", PolicyPreset.self)
            if let preset { policies = NavigationPolicies(preset: preset) } else { isValid = false }
        }
        if let value = members.values["childRetention"] {
            let retention = choice(value, at: members.path("childRetention"), "child retention", ChildRetention.self)
            if let retention { policies.childRetention = retention } else { isValid = false }
        }
        if let value = members.values["didSelectForProgrammaticSelection"] {
            let flag = bool(value, at: members.path("didSelectForProgrammaticSelection"))
            if let flag { policies.didSelectForProgrammaticSelection = flag } else { isValid = false }
        }
        if let value = members.values["reselect"] {
            let reselect = choice(value, at: members.path("reselect"), "reselect behaviour", ReselectBehaviour.self)
            if let reselect { policies.reselect = reselect } else { isValid = false }
        }
        return isValid ? policies : nil
    }

    private mutating func parseTabs(_ value: JSONValue, at path: String) -> [TabDescription]? {
        guard let elements = array(value, at: path) else { return nil }
        let limits = AppDescription.Limits.tabCount
        var isValid = true
        if elements.count < limits.lowerBound {
            report(path, "\(elements.count) tabs; an app needs at least \(limits.lowerBound)")
            isValid = false
        } else if elements.count > limits.upperBound {
            report(path, "\(elements.count) tabs; an app has at most \(limits.upperBound)")
            isValid = false
        }
        var tabs: [TabDescription] = []
        var firstIndexByID: [String: Int] = [:]
        for (index, element) in elements.enumerated() {
            let tabPath = "\(path)[\(index)]"
            let tab = parseTab(element, at: tabPath)
            // Duplicates are reported even when the tab has other problems, so one run shows them all.
            if case .object(let list) = element, case .string(let id)? = list.first(where: { $0.key == "id" })?.value,
                Self.isIdentifier(id)
            {
                if let earlier = firstIndexByID[id] {
                    report("\(tabPath).id", "duplicate tab id '\(id)'; \(path)[\(earlier)] has it already")
                    isValid = false
                } else {
                    firstIndexByID[id] = index
                }
            }
            if let tab { tabs.append(tab) } else { isValid = false }
        }
        return isValid ? tabs : nil
    }

    private mutating func parseTab(_ value: JSONValue, at path: String) -> TabDescription? {
        let keys = [
            "id", "title", "icon", "requiresLogin", "badge", "badgeLabel", "hidesBottomBarWhenPushed", "allowsHiding",
            "page",
        ]
        guard let members = members(value, at: path, allowed: keys) else { return nil }
        let id = required(members, "id").flatMap { identifier($0, at: members.path("id")) }
        let title = required(members, "title").flatMap {
            localizedText(
                $0, at: members.path("title"), what: "a title", maximumLength: AppDescription.Limits.titleLength)
        }
        let icon = required(members, "icon").flatMap { parseIcon($0, at: members.path("icon")) }
        var requiresLogin: Bool? = false
        if let value = members.values["requiresLogin"] {
            requiresLogin = bool(value, at: members.path("requiresLogin"))
        }
        var allowsHiding: Bool? = false
        if let value = members.values["allowsHiding"] { allowsHiding = bool(value, at: members.path("allowsHiding")) }
        var hidesBar: Bool?? = .some(nil)
        if let value = members.values["hidesBottomBarWhenPushed"] {
            hidesBar = bool(value, at: members.path("hidesBottomBarWhenPushed")).map(Optional.some)
        }
        let page = required(members, "page").flatMap { parsePage($0, at: members.path("page")) }
        guard let badges = parseTabBadge(members, page: page) else { return nil }
        guard let id, let title, let icon, let requiresLogin, let badge = badges.badge, let binding = badges.binding,
            let label = badges.label, let hidesBar, let allowsHiding, let page
        else { return nil }
        return TabDescription(
            id: id, title: title, icon: icon, requiresLogin: requiresLogin, initialBadge: badge,
            badgeBinding: binding, badgeLabel: label, hidesBottomBarWhenPushed: hidesBar, allowsHiding: allowsHiding,
            page: page)
    }

    /// A tab's `badge` and `badgeLabel`, each `.some(nil)` when absent and nil after a problem;
    /// nil in all when they do not fit the page.
    private mutating func parseTabBadge(_ members: Members, page: PageDescription?) -> (
        badge: Badge??, binding: BadgeBinding??, label: LocalizedText??
    )? {
        var badge: Badge?? = .some(nil)
        var binding: BadgeBinding?? = .some(nil)
        if let value = members.values["badge"] {
            if case .object(let list) = value, list.contains(where: { $0.key == "from" }) {
                binding = parseBadgeBinding(value, at: members.path("badge")).map(Optional.some)
            } else {
                badge = parseBadge(value, at: members.path("badge"))
            }
        }
        let label = optionalText(
            members, "badgeLabel", what: "a badge label", maximumLength: AppDescription.Limits.badgeLabelLength)
        if page?.kind == .news, let value = members.values["badge"], value != .null {
            report(members.path("badge"), "a news page's badge is its unread count; remove 'badge'")
            return nil
        }
        if let page, page.kind != .counter, case .some(.some) = binding {
            report(members.path("badge.from"), "only a counter page's badge can be bound to its count")
            return nil
        }
        let counts: Bool
        switch badge {
        case .some(.some(.count)): counts = true
        case .some(.some(.text)): counts = false
        default: counts = page?.kind == .news || binding != .some(nil)
        }
        if case .some(.some) = label, !counts, page != nil {
            report(
                members.path("badgeLabel"),
                "a badge label says what a count badge counts; this tab's badge is not a count")
            return nil
        }
        return (badge, binding, label)
    }

    /// `{"from": "count"}`.
    private mutating func parseBadgeBinding(_ value: JSONValue, at path: String) -> BadgeBinding? {
        guard let members = members(value, at: path, allowed: ["from"]) else { return nil }
        return required(members, "from").flatMap {
            choice($0, at: members.path("from"), "badge source", BadgeBinding.self)
        }
    }

    private mutating func parseIcon(_ value: JSONValue, at path: String) -> TabIcon? {
        let names = BuiltInIcon.allCases.map(\.rawValue).joined(separator: ", ")
        switch value {
        case .string(let name):
            guard let icon = BuiltInIcon(rawValue: name) else {
                let nearest = BuiltInIcon.nearest(to: name).rawValue
                report(
                    path,
                    "unknown icon '\(name)'; did you mean '\(nearest)'? Expected one of \(names), "
                        + "or {\"path\": ..., \"fillRule\": ...}")
                return nil
            }
            return .builtIn(icon)
        case .object:
            guard let members = members(value, at: path, allowed: ["path", "fillRule"]) else { return nil }
            var fillRule: FillRule? = .nonzero
            if let value = members.values["fillRule"] {
                fillRule = choice(value, at: members.path("fillRule"), "fill rule", FillRule.self)
            }
            let pathPath = members.path("path")
            var data = required(members, "path").flatMap { string($0, at: pathPath) }
            if let text = data {
                if text.trimmingSpaces.isEmpty {
                    report(pathPath, "empty path data; give SVG path data such as \"M2 2h20v20H2z\"")
                    data = nil
                } else if text.utf8.count > AppDescription.Limits.pathDataLength {
                    report(
                        pathPath,
                        "path data too long (\(text.utf8.count) bytes); at most \(AppDescription.Limits.pathDataLength)"
                    )
                    data = nil
                } else if let problem = pathDataProblem(text) {
                    report(pathPath, problem)
                    data = nil
                }
            }
            guard let data, let fillRule else { return nil }
            return .path(data: data, fillRule: fillRule)
        default:
            typeMismatch(path, expected: "an icon name or an object with path data", found: value)
            return nil
        }
    }

    /// `.some(nil)` for an explicit null (no badge), nil after a problem.
    private mutating func parseBadge(_ value: JSONValue, at path: String) -> Badge?? {
        switch value {
        case .null:
            return .some(nil)
        case .number:
            return integer(value, at: path, in: AppDescription.Limits.badgeCount).map { .count($0) }
        case .string(let text):
            guard text.count <= AppDescription.Limits.badgeTextLength else {
                report(
                    path,
                    "too long (\(text.count) characters); a badge has at most \(AppDescription.Limits.badgeTextLength)")
                return nil
            }
            // One text for every language.
            return .some(.text(LocalizedText([LocalizedText.fallbackLanguage: text])))
        case .object:
            return localizedText(
                value, at: path, what: "a badge", maximumLength: AppDescription.Limits.badgeTextLength
            ).map { .some(.text($0)) }
        default:
            typeMismatch(path, expected: "a count, a short text, texts by language or null", found: value)
            return nil
        }
    }

    // MARK: Pages

    private mutating func parsePage(_ value: JSONValue, at path: String) -> PageDescription? {
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
            }
        guard let members = members(value, at: path, allowed: common + own) else { return nil }
        let heading = optionalText(
            members, "heading", what: "a heading", maximumLength: AppDescription.Limits.headingLength)
        let paragraphs = members.values["paragraphs"].map { parseParagraphs($0, at: members.path("paragraphs")) } ?? []
        let content = pageContent(kind, members)
        guard let heading, let paragraphs, let content else { return nil }
        return PageDescription(heading: heading, paragraphs: paragraphs, content: content)
    }

    private mutating func parseParagraphs(_ value: JSONValue, at path: String) -> [LocalizedText]? {
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

    private mutating func pageContent(_ kind: PageKind, _ members: Members) -> PageContent? {
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
        }
    }

    private mutating func parseCounter(_ members: Members) -> PageContent? {
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

    private mutating func parseWallet(_ members: Members) -> PageContent? {
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
    private mutating func parseItems(
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
