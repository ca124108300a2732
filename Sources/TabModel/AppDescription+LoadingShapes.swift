// The generic shapes of the app format: objects with known keys, strings, numbers, arrays,
// choices, identifiers and localized text, each reporting what it expected.
extension DescriptionValidator {
    mutating func members(_ value: JSONValue, at path: String, allowed: [String]) -> Members? {
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
    mutating func required(_ members: Members, _ key: String) -> JSONValue? {
        guard let value = members.values[key], value != .null else {
            report(members.path(key), "missing required key '\(key)'")
            return nil
        }
        return value
    }

    mutating func string(_ value: JSONValue, at path: String) -> String? {
        guard case .string(let text) = value else {
            typeMismatch(path, expected: "a string", found: value)
            return nil
        }
        return text
    }

    mutating func bool(_ value: JSONValue, at path: String) -> Bool? {
        guard case .bool(let flag) = value else {
            typeMismatch(path, expected: "a boolean", found: value)
            return nil
        }
        return flag
    }

    mutating func integer(_ value: JSONValue, at path: String, in range: ClosedRange<Int>) -> Int? {
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

    mutating func array(_ value: JSONValue, at path: String) -> [JSONValue]? {
        guard case .array(let elements) = value else {
            typeMismatch(path, expected: "an array", found: value)
            return nil
        }
        return elements
    }

    mutating func choice<Choice: RawRepresentable & CaseIterable>(
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

    mutating func identifier(_ value: JSONValue, at path: String) -> String? {
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

    mutating func localizedText(_ value: JSONValue, at path: String, what: String, maximumLength: Int)
        -> LocalizedText?
    {
        guard case .object(let list) = value else {
            typeMismatch(
                path, expected: "an object of texts by language, such as \(textExample)", found: value)
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
                report(memberPath, "'\(member.key)' is not a language tag such as en, fr or zh-Hant")
                isValid = false
                continue
            }
            guard let text = string(member.value, at: memberPath) else {
                isValid = false
                continue
            }
            let length = text.count
            if let problem = Self.controlCharacterProblem(in: text) {
                report(memberPath, problem)
                isValid = false
            } else if text.trimmingSpaces.isEmpty {
                report(memberPath, "empty; \(what) needs 1 to \(maximumLength) characters")
                isValid = false
            } else if length > maximumLength {
                report(memberPath, "too long (\(length) characters); \(what) has at most \(maximumLength)")
                isValid = false
            }
            translations[member.key] = text
        }
        // Keys that are no language tag, or repeated, were reported above; the rest keep the app's rule.
        var written: [String] = []
        for member in list where isLanguageTag(member.key) && !written.contains(member.key) {
            written.append(member.key)
        }
        for problem in textLanguages?.problems(ofTextIn: written) ?? [] {
            report(problem.language.map { "\(path).\($0)" } ?? path, problem.message)
            isValid = false
        }
        return isValid ? LocalizedText(translations) : nil
    }

    /// `{"en": ..., "zh-Hant": ...}` in the app's languages.
    private var textExample: String {
        let tags = textLanguages?.tags ?? AppDescription.demoLanguages
        return "{" + tags.map { "\"\($0)\": ..." }.joined(separator: ", ") + "}"
    }

    /// Why `text` cannot be shown: a control character (Unicode's Cc: U+0000 to U+001F, U+007F
    /// to U+009F), which a page or export.swift would hold raw. nil when there is none.
    static func controlCharacterProblem(in text: String) -> String? {
        for (index, character) in text.enumerated() {
            guard let scalar = character.unicodeScalars.first(where: { $0.properties.generalCategory == .control })
            else { continue }
            let names: [UInt32: String] = [
                0x00: "NUL", 0x09: "TAB", 0x0A: "LF", 0x0B: "VT", 0x0C: "FF", 0x0D: "CR", 0x1B: "ESC", 0x7F: "DEL",
            ]
            var code = String(scalar.value, radix: 16, uppercase: true)
            code = String(repeating: "0", count: max(0, 4 - code.count)) + code
            let name = names[scalar.value].map { " (\($0))" } ?? ""
            return "control character U+\(code)\(name) at character \(index + 1); texts cannot hold control characters"
        }
        return nil
    }

    /// The optional text at `key`: `.some(nil)` when absent, nil after a problem.
    mutating func optionalText(_ members: Members, _ key: String, what: String, maximumLength: Int)
        -> LocalizedText??
    {
        guard let value = members.values[key] else { return .some(nil) }
        return localizedText(value, at: members.path(key), what: what, maximumLength: maximumLength).map(Optional.some)
    }

    static func isIdentifier(_ text: String) -> Bool {
        AppDescription.Limits.idLength.contains(text.count)
            && text.unicodeScalars.allSatisfy { ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "-" }
    }

    func isLanguageTag(_ key: String) -> Bool {
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
}
