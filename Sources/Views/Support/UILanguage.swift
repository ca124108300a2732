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

    /// The best of `tags` (not empty) for an `Accept-Language` header (`LanguageChooser` says
    /// how); a page's languages choose with `PageLanguages.negotiate`, which reads its tags once.
    public static func negotiate(acceptLanguage header: String?, among tags: [String]) -> String {
        LanguageChooser(tags: tags).choose(header)
    }
}

/// The languages a page may be in (its app's, in the app's order), each made a `PageLanguage`
/// once: choosing a `PageLanguage`'s labels negotiates, which a request should not repeat. One
/// object per app version, shared: a request holding it retains one reference, not its arrays.
public final class PageLanguages: Sendable {
    public let tags: [String]
    /// One for each of `tags`, in their order.
    public let all: [PageLanguage]

    private let chooser: LanguageChooser

    public init(tags: [String]) {
        self.tags = tags
        all = tags.map { PageLanguage(tag: $0) }
        chooser = LanguageChooser(tags: tags)
    }

    /// The best of `tags` for an `Accept-Language` header (see `LanguageChooser`).
    public func negotiate(acceptLanguage header: String?) -> String { chooser.choose(header) }

    /// The language of `tag`, one of `tags` (else made for it).
    public func page(_ tag: String) -> PageLanguage {
        all.first { $0.tag == tag } ?? PageLanguage(tag: tag)
    }
}
