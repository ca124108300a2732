/// Visible text in several languages, keyed by language tag (`en`, `zh-Hant`, ...).
///
/// Every text of an app description is written in each of its app's languages and in no other
/// (``Languages/problems(ofTextIn:)`` is that rule, which the loader applies to every text); a
/// language asked for that a text lacks falls back to English, else to the text's first language
/// by tag, so a view never shows an empty label.
public struct LocalizedText: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The language used when a text lacks the one asked for.
    public static let fallbackLanguage = "en"

    /// The text per language tag.
    public var translations: [String: String]

    public init(_ translations: [String: String]) {
        self.translations = translations
    }

    public init(en: String, zhHant: String) {
        self.translations = ["en": en, "zh-Hant": zhHant]
    }

    /// The text in `language`, else in English, else in the first of its languages by tag (so
    /// the same whatever the dictionary's order), else empty.
    ///
    /// Texts hold a few languages: comparing the keys in turn answers the same as two hashed
    /// lookups for a fraction of their cost (this runs for every localized text on a page).
    public func text(in language: String) -> String {
        guard translations.count <= 4 else {
            return translations[language] ?? translations[Self.fallbackLanguage] ?? firstByTag
        }
        var fallback: String?
        for (key, value) in translations {
            if key == language { return value }
            if key == Self.fallbackLanguage { fallback = value }
        }
        return fallback ?? firstByTag
    }

    private var firstByTag: String {
        translations.min { $0.key < $1.key }?.value ?? ""
    }

    /// The English text.
    public var english: String { text(in: Self.fallbackLanguage) }

    public var description: String { english }

    /// An object of texts by language; a plain string (a text badge saved before badges were
    /// localized) reads as English alone.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let english = try? container.decode(String.self) {
            translations = [Self.fallbackLanguage: english]
        } else {
            translations = try container.decode([String: String].self)
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(translations)
    }
}

extension LocalizedText {
    /// The languages an app's texts are written in, in its order, and where they were said: the
    /// file's `languages`, or (without it) the languages of its `name`.
    public struct Languages: Sendable, Equatable {
        public var tags: [String]
        /// Whether `languages` said them (else they are the name's).
        public var areDeclared: Bool

        public init(tags: [String], areDeclared: Bool) {
            self.tags = tags
            self.areDeclared = areDeclared
        }

        /// One way a text breaks the rule: `language` names the text's member at fault, nil the
        /// text as a whole (a language it lacks).
        public struct Problem: Sendable, Equatable {
            public var language: String?
            public var message: String
        }

        /// The rule every text of an app keeps, in one place: it is written in each of the app's
        /// languages and in no other. `keys` are the text's languages as written, in order.
        public func problems(ofTextIn keys: [String]) -> [Problem] {
            var problems: [Problem] = []
            let listed = tags.joined(separator: ", ")
            for key in keys where !tags.contains(key) {
                var message = "'\(key)' is not one of the app's languages "
                if let spelled = tags.first(where: { $0.lowercased() == key.lowercased() }) {
                    message += "(\(listed)); did you mean '\(spelled)'?"
                } else if areDeclared {
                    message += "(\(listed)); add it to \"languages\" or remove this text"
                } else {
                    message += "(\(listed), those of \"name\"); declare \"languages\" to add it, or remove this text"
                }
                problems.append(Problem(language: key, message: message))
            }
            // A language written in another case was named above already.
            for tag in tags where !keys.contains(where: { $0.lowercased() == tag.lowercased() }) {
                problems.append(Problem(language: nil, message: "missing '\(tag)'"))
            }
            return problems
        }
    }
}
