import TabModel

/// The languages TabStage's own labels (`UIString`) are written in; a page in any other
/// language has them in English.
public enum UILanguage: String, Sendable, Equatable, CaseIterable, Codable {
    case english = "en"
    case traditionalChinese = "zh-Hant"

    /// The label language's tag.
    public var tag: String { rawValue }

    /// The tags of every case: the languages of a page about no app.
    public static let tags = allCases.map(\.tag)

    /// The languages of a page about no app, with their labels.
    public static let pageLanguages = PageLanguages(tags: tags)

    /// The labels for a page in `tag`: the language we write that `tag` means (`zh-TW` means
    /// Traditional Chinese), English for any we do not.
    public init(labelsFor tag: String) {
        self = UILanguage(rawValue: PageLanguage.negotiate(acceptLanguage: tag, among: Self.tags)) ?? .english
    }
}

/// The language of a page: `tag` is one of its app's languages (TabStage's own on a page about no
/// app), the key its app texts are read with and its `<html lang>`; `labels` is the language of
/// TabStage's own labels on it.
public struct PageLanguage: Sendable, Hashable {
    public let tag: String
    public let labels: UILanguage

    public init(tag: String) {
        self.tag = tag
        labels = UILanguage(labelsFor: tag)
    }

    public init(_ labels: UILanguage) {
        tag = labels.tag
        self.labels = labels
    }

    public static let english = PageLanguage(.english)
    public static let traditionalChinese = PageLanguage(.traditionalChinese)

    /// The one of `tags` that `tag` names, ignoring case (BCP 47 tags are), spelled as in `tags`.
    public static func tag(_ tag: some StringProtocol, among tags: [String]) -> String? {
        // Most often spelled as in `tags` (a session keeps the spelling): no lowercasing then.
        if let same = tags.first(where: { $0 == tag }) { return same }
        let lowered = tag.lowercased()
        return tags.first { $0.lowercased() == lowered }
    }

    /// Whether the labels are in the page's own language (else they carry a `lang` of theirs).
    var labelsAreInPageLanguage: Bool { labels.tag == tag }

    /// The best of `tags` (not empty) for an `Accept-Language` header: ranges in order of
    /// quality (ties keep the order sent), the first that matches one of `tags` wins; the first of
    /// `tags` when none does.
    ///
    /// A range matches the tag it equals (ignoring case) best, then one whose subtags begin with
    /// its own or begin its own (`en` and `en-GB`), then one of its language (`en-US` and `en-GB`).
    /// Chinese matches only in its script: `zh-Hant…`, `zh-TW`, `zh-HK` and `zh-MO` are
    /// Traditional; plain `zh`, `zh-CN` and `zh-Hans` are Simplified.
    public static func negotiate(acceptLanguage header: String?, among tags: [String]) -> String {
        let fallback = tags.first ?? LocalizedText.fallbackLanguage
        guard let header else { return fallback }
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
            if entry.range == "*" { return fallback }
            let range = entry.range.split(separator: "-")
            var best: (tag: String, score: Int)?
            for tag in tags {
                let score = matchScore(range, tag.lowercased().split(separator: "-"))
                if score > (best?.score ?? 0) { best = (tag, score) }
            }
            if let best { return best.tag }
        }
        return fallback
    }

    /// 3 for the same tag, 2 when one's subtags begin the other's, 1 for the same language, 0 for
    /// none (see `negotiate`).
    private static func matchScore(_ range: [Substring], _ tag: [Substring]) -> Int {
        guard let language = range.first, language == tag.first else { return 0 }
        if language == "zh" && isTraditionalChinese(range) != isTraditionalChinese(tag) { return 0 }
        if range == tag { return 3 }
        return range.starts(with: tag) || tag.starts(with: range) ? 2 : 1
    }

    private static func isTraditionalChinese(_ subtags: [Substring]) -> Bool {
        let rest = subtags.dropFirst()
        return !rest.contains("hans") && rest.contains { ["hant", "tw", "hk", "mo"].contains($0) }
    }
}

/// The languages a page may be in (its app's, in the app's order), each made a `PageLanguage`
/// once: choosing a `PageLanguage`'s labels negotiates, which a request should not repeat.
public struct PageLanguages: Sendable {
    public let tags: [String]
    /// One for each of `tags`, in their order.
    public let all: [PageLanguage]

    public init(tags: [String]) {
        self.tags = tags
        all = tags.map { PageLanguage(tag: $0) }
    }

    /// The language of `tag`, one of `tags` (else made for it).
    public func page(_ tag: String) -> PageLanguage {
        all.first { $0.tag == tag } ?? PageLanguage(tag: tag)
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
