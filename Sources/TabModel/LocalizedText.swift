/// Visible text in several languages, keyed by language tag (`en`, `zh-Hant`, ...).
///
/// Every text of an app description carries at least ``requiredLanguages``; a missing
/// language falls back to English, so a view never shows an empty label.
public struct LocalizedText: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The languages every text must have.
    public static let requiredLanguages = ["en", "zh-Hant"]
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

    /// The text in `language`, else in English, else empty.
    ///
    /// Texts hold a few languages: comparing the keys in turn answers the same as two hashed
    /// lookups for a fraction of their cost (this runs for every localized text on a page).
    public func text(in language: String) -> String {
        guard translations.count <= 4 else {
            return translations[language] ?? translations[Self.fallbackLanguage] ?? ""
        }
        var fallback: String?
        for (key, value) in translations {
            if key == language { return value }
            if key == Self.fallbackLanguage { fallback = value }
        }
        return fallback ?? ""
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
