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
    public func text(in language: String) -> String {
        translations[language] ?? translations[Self.fallbackLanguage] ?? ""
    }

    /// The English text.
    public var english: String { text(in: Self.fallbackLanguage) }

    public var description: String { english }

    public init(from decoder: any Decoder) throws {
        translations = try decoder.singleValueContainer().decode([String: String].self)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(translations)
    }
}
