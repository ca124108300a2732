import Colour

// The app's own fields: its header, sections, customization, colours and navigation policies.
extension DescriptionValidator {
    mutating func app(_ document: JSONValue) -> AppDescription? {
        let keys = [
            "id", "name", "tint", "layout", "iconStyle", "policies", "hidesBottomBarWhenPushed", "tabs", "sections",
            "customizable", "showsDemos", "textTint", "languages",
        ]
        guard let members = members(document, at: "", allowed: keys) else { return nil }
        let id = required(members, "id").flatMap { identifier($0, at: "id") }
        // The languages come before any text is read: every text is checked against them.
        var languagesAreValid = true
        if let value = members.values["languages"] {
            let (tags, isValid) = parseLanguages(value, at: "languages")
            languagesAreValid = isValid
            textLanguages = tags.isEmpty ? nil : LocalizedText.Languages(tags: tags, areDeclared: true)
        } else {
            textLanguages = languages(ofName: members.values["name"])
        }
        var name = required(members, "name").flatMap {
            localizedText($0, at: "name", what: "a name", maximumLength: AppDescription.Limits.nameLength)
        }
        if name != nil, textLanguages == nil, members.values["languages"] == nil {
            // `{}`: no language said, here or in `languages`.
            report("name", "no text; write the name in each of the app's languages, such as {\"en\": \"My App\"}")
            name = nil
        }
        let tint = required(members, "tint").flatMap { colour($0, at: "tint") }
        var textTint: String?? = .some(nil)
        if let value = members.values["textTint"] { textTint = colour(value, at: "textTint").map { readableText($0) } }
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
        var showsDemos: Bool? = true
        if let value = members.values["showsDemos"] { showsDemos = bool(value, at: "showsDemos") }
        let tabs = required(members, "tabs").flatMap { parseTabs($0, at: "tabs") }
        let sections: [TabSectionDescription]? =
            members.values["sections"].map { parseSections($0, at: "sections") } ?? []
        let customizable: [String]? =
            members.values["customizable"].map { tabIDList($0, at: "customizable", allowsEmpty: true) } ?? []
        guard languagesAreValid, let languages = textLanguages?.tags, let id, let name, let tint, let layout,
            let iconStyle, let policies, let hidesBar, let tabs, let sections, let customizable, let showsDemos,
            let textTint
        else { return nil }
        var app = AppDescription(
            id: id, name: name, languages: languages, tint: tint, defaultLayout: layout, iconStyle: iconStyle,
            policies: policies,
            hidesBottomBarWhenPushed: hidesBar, tabs: tabs, sections: sections,
            customizableTabIDs: tabs.map(\.id).filter { customizable.contains($0) }, showsDemos: showsDemos)
        if let textTint { app.textTint = textTint }
        return app
    }

    /// A chosen text colour, if it reads: 4.5:1 against the lightest backgrounds' darkest
    /// (`AppDescription.textBackground`); otherwise a located problem, and nil.
    private mutating func readableText(_ colour: String) -> String? {
        guard let parsed = RGBColor(hex: colour) else { return nil }
        let ratio = parsed.contrast(with: AppDescription.textBackground)
        guard ratio >= AppDescription.textContrast else {
            report(
                "textTint",
                "\(colour) has \(RGBColor.ratioText(ratio)) against the bar's selected cell "
                    + "(\(AppDescription.textBackground)); text needs 4.5:1, so choose a darker colour")
            return nil
        }
        return colour
    }

    /// `"languages": ["en", ...]`: 1 to `Limits.languageCount` language tags, each once. The tags
    /// that are valid come back whatever else is wrong, so that the texts are still checked.
    mutating func parseLanguages(_ value: JSONValue, at path: String) -> (tags: [String], isValid: Bool) {
        guard case .array(let elements) = value else {
            typeMismatch(path, expected: "an array of language tags such as [\"en\", \"zh-Hant\"]", found: value)
            return ([], false)
        }
        let limit = AppDescription.Limits.languageCount
        guard limit.contains(elements.count) else {
            let count = elements.isEmpty ? "empty" : "\(elements.count) languages"
            report(path, "\(count); an app has \(limit.lowerBound) to \(limit.upperBound) languages, such as [\"en\"]")
            return ([], false)
        }
        var tags: [String] = []
        var isValid = true
        for (index, element) in elements.enumerated() {
            let elementPath = "\(path)[\(index)]"
            guard let tag = string(element, at: elementPath) else {
                isValid = false
                continue
            }
            if !isLanguageTag(tag) {
                report(elementPath, "'\(tag)' is not a language tag such as en, fr or zh-Hant")
                isValid = false
            } else if let earlier = tags.firstIndex(where: { $0.lowercased() == tag.lowercased() }) {
                report(elementPath, "'\(tag)' is listed twice; \(path)[\(earlier)] has it already")
                isValid = false
            } else {
                tags.append(tag)
            }
        }
        return (tags, isValid)
    }

    /// The languages of an app that does not declare them: those its `name` is written in, in
    /// its order (nil when the name is no object of texts).
    func languages(ofName name: JSONValue?) -> LocalizedText.Languages? {
        guard case .object(let list)? = name else { return nil }
        var tags: [String] = []
        for member in list where isLanguageTag(member.key) && !tags.contains(member.key) { tags.append(member.key) }
        return tags.isEmpty ? nil : LocalizedText.Languages(tags: tags, areDeclared: false)
    }

    /// The tab ids written in `tabs`, whatever else is wrong with the tabs.
    var knownTabIDs: Set<String> { Set(writtenTabIDs.values) }

    /// `[{"id", "title", "tabs": [ids]}]`: unique section ids, no empty section, every tab known
    /// and in one section at most.
    mutating func parseSections(_ value: JSONValue, at path: String) -> [TabSectionDescription]? {
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
    mutating func tabIDList(_ value: JSONValue, at path: String, allowsEmpty: Bool) -> [String]? {
        var known: [(index: Int, id: String)] = []
        return tabIDList(value, at: path, allowsEmpty: allowsEmpty, known: &known)
    }

    /// `tabIDList`, with `known` given each id that names a tab once, with its place in the array,
    /// even when others do not.
    mutating func tabIDList(
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

    mutating func colour(_ value: JSONValue, at path: String) -> String? {
        guard let text = string(value, at: path) else { return nil }
        guard text.utf8.first == UInt8(ascii: "#"), RGBColor(hex: text) != nil else {
            report(path, "'\(text)' is not a colour; expected #RRGGBB, such as #FF9500")
            return nil
        }
        return text
    }

    /// A preset's name, or an object whose keys each default from its `preset` (itself `preset` by default).
    mutating func parsePolicies(_ value: JSONValue, at path: String, preset: PolicyPreset)
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
}
