/// The languages the pages are written in.
public enum UILanguage: String, Sendable, Equatable, CaseIterable, Codable {
    case english = "en"
    case traditionalChinese = "zh-Hant"

    /// The `<html lang>` value and the key into app texts.
    public var tag: String { rawValue }

    /// This language if the app's `languages` hold it, else the app's first (its default): an
    /// English-only app is shown in English to every visitor.
    public func within(_ languages: [String]) -> UILanguage {
        guard !languages.contains(tag), let first = languages.first, let fallback = UILanguage(tag: first) else {
            return self
        }
        return fallback
    }

    /// A `?lang=` value: exactly one of the tags, ignoring case.
    public init?(tag: some StringProtocol) {
        let lowered = tag.lowercased()
        guard let match = Self.allCases.first(where: { $0.rawValue.lowercased() == lowered }) else { return nil }
        self = match
    }

    /// The best language for an `Accept-Language` header: ranges in order of quality (ties keep
    /// the order sent), the first one we write wins; English when none does.
    ///
    /// `zh-Hant…`, `zh-TW`, `zh-HK` and `zh-MO` mean Traditional Chinese; plain `zh`,
    /// `zh-CN` and `zh-Hans` are Simplified, which we do not offer, so they are skipped.
    public static func negotiate(acceptLanguage header: String?) -> UILanguage {
        guard let header else { return .english }
        var ranges: [(range: String, quality: Double, position: Int)] = []
        for (position, part) in header.split(separator: ",").enumerated() {
            let pieces = part.split(separator: ";").map { $0.trimmingCharacters(in: " \t") }
            guard let range = pieces.first, !range.isEmpty else { continue }
            var quality = 1.0
            for parameter in pieces.dropFirst() where parameter.lowercased().hasPrefix("q=") {
                quality = Double(parameter.dropFirst(2)) ?? 0
            }
            if quality > 0 { ranges.append((range.lowercased(), quality, position)) }
        }
        ranges.sort { ($0.quality, -$0.position) > ($1.quality, -$1.position) }
        for entry in ranges {
            if let language = language(forRange: entry.range) { return language }
        }
        return .english
    }

    private static func language(forRange range: String) -> UILanguage? {
        let subtags = range.split(separator: "-")
        guard let primary = subtags.first else { return nil }
        switch primary {
        case "en", "*":
            return .english
        case "zh":
            let rest = subtags.dropFirst()
            if rest.contains("hant") { return .traditionalChinese }
            if rest.contains("hans") { return nil }
            return rest.contains(where: { ["tw", "hk", "mo"].contains($0) }) ? .traditionalChinese : nil
        default:
            return nil
        }
    }
}

extension StringProtocol {
    /// Without the given leading and trailing characters; Views stays free of Foundation.
    func trimmingCharacters(in set: String) -> String {
        var text = Substring(self)
        while let first = text.first, set.contains(first) { text = text.dropFirst() }
        while let last = text.last, set.contains(last) { text = text.dropLast() }
        return String(text)
    }
}
