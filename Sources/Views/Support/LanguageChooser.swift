import ASCII
import TabModel

/// Chooses one of a page's languages for an `Accept-Language` header, read on the header's
/// bytes (language tags are ASCII, RFC 5646 §2.1, and compare ignoring ASCII case). The tags'
/// lowercased subtags are made once, when the page's languages are (`PageLanguages`): a request
/// makes no String of its own (a quality value is read from the header's text).
///
/// The best of `tags` (not empty) for a header: ranges in order of quality (ties keep the order
/// sent), the first that matches one of `tags` wins; the first of `tags` when none does. A
/// range matches the tag it equals (ignoring case) best, then one whose subtags begin with its
/// own or begin its own (`en` and `en-GB`), then one of its language (`en-US` and `en-GB`).
/// Chinese matches only in its script: `zh-Hant…`, `zh-TW`, `zh-HK` and `zh-MO` are
/// Traditional; plain `zh`, `zh-CN` and `zh-Hans` are Simplified.
///
/// Reading a header: ranges are the non-empty parts between commas, a range's parameters the
/// non-empty parts between semicolons, each without the spaces and tabs around it; a range
/// with an empty tag is left out, as is one whose last `q=` (or `Q=`) value is not above 0 or
/// not a number; subtags are the non-empty parts between hyphens.
struct LanguageChooser: Sendable {
    let tags: [String]
    /// Each tag's subtags, lowercased.
    private let subtags: [[[UInt8]]]
    /// Whether each tag is Chinese, and whether in the Traditional script.
    private let chinese: [Bool]
    private let traditional: [Bool]

    init(tags: [String]) {
        self.tags = tags
        subtags = tags.map { tag in
            tag.utf8.split(separator: UInt8(ascii: "-")).map { $0.map(ASCIICase.lowercased) }
        }
        chinese = subtags.map { $0.first == Self.zh }
        traditional = tags.map { Self.isTraditionalChinese(0..<$0.utf8.count, in: $0.utf8.span) }
    }

    /// The tag `header` asks for best (see the type's comment).
    func choose(_ header: String?) -> String {
        let fallback = tags.first ?? LocalizedText.fallbackLanguage
        guard let header else { return fallback }
        return choose(in: header.utf8.span, of: header) ?? fallback
    }

    private typealias Part = Range<Int>

    private static let zh = Array("zh".utf8)
    private static let hans = Array("hans".utf8)
    private static let traditionalSubtags = ["hant", "tw", "hk", "mo"].map { Array($0.utf8) }

    /// The chosen tag, or nil for the fallback (no range matched, or `*` came first).
    private func choose(in bytes: Span<UInt8>, of header: String) -> String? {
        var ranges: [(range: Part, quality: Double, position: Int)] = []
        var parts = Parts(of: 0..<bytes.count, at: UInt8(ascii: ","))
        var position = 0
        while let part = parts.next(in: bytes) {
            defer { position += 1 }
            var pieces = Parts(of: part, at: UInt8(ascii: ";"))
            guard let first = pieces.next(in: bytes) else { continue }
            let range = OptionalWhitespace.trimmed(first, in: bytes)
            var quality = 1.0
            while let next = pieces.next(in: bytes) {
                let piece = OptionalWhitespace.trimmed(next, in: bytes)
                guard piece.count >= 2, ASCIICase.lowercased(bytes[piece.lowerBound]) == UInt8(ascii: "q"),
                    bytes[piece.lowerBound + 1] == UInt8(ascii: "=")
                else { continue }
                let utf8 = header.utf8
                let value = utf8.index(utf8.startIndex, offsetBy: piece.lowerBound + 2)
                quality = Double(Substring(utf8[value..<utf8.index(value, offsetBy: piece.count - 2)])) ?? 0
            }
            if !range.isEmpty, quality > 0 { ranges.append((range, quality, position)) }
        }
        ranges.sort { ($0.quality, -$0.position) > ($1.quality, -$1.position) }
        for entry in ranges {
            if entry.range.count == 1 && bytes[entry.range.lowerBound] == UInt8(ascii: "*") { return nil }
            var rangeIsTraditional: Bool?
            var best: (index: Int, score: Int)?
            for index in tags.indices {
                let score = matchScore(entry.range, in: bytes, tag: index) {
                    if let known = rangeIsTraditional { return known }
                    let known = Self.isTraditionalChinese(entry.range, in: bytes)
                    rangeIsTraditional = known
                    return known
                }
                if score > (best?.score ?? 0) { best = (index, score) }
            }
            if let best { return tags[best.index] }
        }
        return nil
    }

    /// 3 for the same tag, 2 when one's subtags begin the other's, 1 for the same language, 0 for
    /// none; `isTraditional` says whether the range is in the Traditional script (asked only of a
    /// Chinese range).
    private func matchScore(
        _ range: Part, in bytes: Span<UInt8>, tag index: Int, isTraditional: () -> Bool
    ) -> Int {
        let tag = subtags[index]
        var rangeSubtags = Parts(of: range, at: UInt8(ascii: "-"))
        guard let language = rangeSubtags.next(in: bytes), !tag.isEmpty, Self.equal(language, in: bytes, tag[0])
        else { return 0 }
        if chinese[index] && isTraditional() != traditional[index] { return 0 }
        var compared = 1
        while let subtag = rangeSubtags.next(in: bytes) {
            guard compared < tag.count else { return 2 }
            guard Self.equal(subtag, in: bytes, tag[compared]) else { return 1 }
            compared += 1
        }
        return compared == tag.count ? 3 : 2
    }

    /// The non-empty parts of a part of the header between `separator`s, one after another:
    /// ranges between commas, parameters between semicolons, subtags between hyphens.
    private struct Parts {
        var rest: Part
        let separator: UInt8

        init(of whole: Part, at separator: UInt8) {
            rest = whole
            self.separator = separator
        }

        mutating func next(in bytes: Span<UInt8>) -> Part? {
            while !rest.isEmpty && bytes[rest.lowerBound] == separator {
                rest = rest.lowerBound + 1..<rest.upperBound
            }
            guard !rest.isEmpty else { return nil }
            var end = rest.lowerBound
            while end < rest.upperBound && bytes[end] != separator { end += 1 }
            defer { rest = end..<rest.upperBound }
            return rest.lowerBound..<end
        }
    }

    /// Whether the subtags after the language (of a range, or of a tag) name the Traditional
    /// script: no `hans`, and `hant`, `tw`, `hk` or `mo`.
    private static func isTraditionalChinese(_ range: Part, in bytes: Span<UInt8>) -> Bool {
        var subtags = Parts(of: range, at: UInt8(ascii: "-"))
        _ = subtags.next(in: bytes)
        var traditional = false
        while let subtag = subtags.next(in: bytes) {
            if equal(subtag, in: bytes, hans) { return false }
            if traditionalSubtags.contains(where: { equal(subtag, in: bytes, $0) }) { traditional = true }
        }
        return traditional
    }

    /// Whether the part's bytes, lowercased, are `lowered`.
    private static func equal(_ part: Part, in bytes: Span<UInt8>, _ lowered: [UInt8]) -> Bool {
        guard part.count == lowered.count else { return false }
        for (index, byte) in zip(part, lowered) where ASCIICase.lowercased(bytes[index]) != byte { return false }
        return true
    }
}
