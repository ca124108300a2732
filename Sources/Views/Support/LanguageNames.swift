/// A language's name in that language, for the language switch, where each option is written in
/// the language it opens (a reader finds their own whatever the page is in).
enum LanguageNames {
    /// `tag`'s own name: a tag we know, else its language's name with the rest of the tag after
    /// it (`pt-BR` is `Português (BR)`), else the tag itself.
    static func name(of tag: String) -> String {
        if let name = names[tag.lowercased()] { return name }
        let subtags = tag.split(separator: "-", maxSplits: 1)
        if subtags.count == 2, let name = names[subtags[0].lowercased()] { return "\(name) (\(subtags[1]))" }
        return tag
    }

    /// Endonyms of the languages apps are most often written in, by lower-case tag.
    private static let names: [String: String] = [
        "ar": "العربية", "cs": "Čeština", "da": "Dansk", "de": "Deutsch", "el": "Ελληνικά", "en": "English",
        "es": "Español", "fi": "Suomi", "fr": "Français", "he": "עברית", "hi": "हिन्दी", "hu": "Magyar",
        "id": "Bahasa Indonesia", "it": "Italiano", "ja": "日本語", "ko": "한국어", "ms": "Bahasa Melayu",
        "nb": "Norsk bokmål", "nl": "Nederlands", "pl": "Polski", "pt": "Português", "ro": "Română",
        "ru": "Русский", "sv": "Svenska", "th": "ไทย", "tr": "Türkçe", "uk": "Українська", "vi": "Tiếng Việt",
        "zh": "中文", "zh-hant": "繁體中文", "zh-tw": "繁體中文", "zh-hk": "繁體中文", "zh-hans": "简体中文",
        "zh-cn": "简体中文",
    ]
}
