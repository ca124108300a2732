// Tabs, and each tab's icon and badge.
extension DescriptionValidator {
    mutating func parseTabs(_ value: JSONValue, at path: String) -> [TabDescription]? {
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

    mutating func parseTab(_ value: JSONValue, at path: String) -> TabDescription? {
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
    mutating func parseTabBadge(_ members: Members, page: PageDescription?) -> (
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
    mutating func parseBadgeBinding(_ value: JSONValue, at path: String) -> BadgeBinding? {
        guard let members = members(value, at: path, allowed: ["from"]) else { return nil }
        return required(members, "from").flatMap {
            choice($0, at: members.path("from"), "badge source", BadgeBinding.self)
        }
    }

    mutating func parseIcon(_ value: JSONValue, at path: String) -> TabIcon? {
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
    mutating func parseBadge(_ value: JSONValue, at path: String) -> Badge?? {
        switch value {
        case .null:
            return .some(nil)
        case .number:
            return integer(value, at: path, in: AppDescription.Limits.badgeCount).map { .count($0) }
        case .string(let text):
            if let problem = Self.controlCharacterProblem(in: text) {
                report(path, problem)
                return nil
            }
            guard text.count <= AppDescription.Limits.badgeTextLength else {
                report(
                    path,
                    "too long (\(text.count) characters); a badge has at most \(AppDescription.Limits.badgeTextLength)")
                return nil
            }
            // One text for every language.
            let tags = textLanguages?.tags ?? [LocalizedText.fallbackLanguage]
            return .some(.text(LocalizedText(Dictionary(uniqueKeysWithValues: tags.map { ($0, text) }))))
        case .object:
            return localizedText(
                value, at: path, what: "a badge", maximumLength: AppDescription.Limits.badgeTextLength
            ).map { .some(.text($0)) }
        default:
            typeMismatch(path, expected: "a count, a short text, texts by language or null", found: value)
            return nil
        }
    }
}
