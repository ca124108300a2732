import Foundation
import TabStageApp

/// Replaces the values that change from run to run with stable placeholders, so that a snapshot
/// recorded against a live server (random ids, the wall clock) reads the same as one recorded
/// in deterministic mode.
///
/// - A session id (the `tabstage_session` cookie) and a CSRF token (the forms' `csrf` field) are
///   numbered in the order the run first meets them, `<session-1>`, `<csrf-1>`, and replaced
///   wherever they appear later: a session rotated at log-in shows as `<session-2>`.
/// - Timestamps (ISO 8601, as the event log writes them, and HTTP dates) become `<date>`.
/// - A user's pattern (`redact: /regex/` in a request list) replaces each match, or its first
///   group when it has one, with `<redacted-N>`, numbered by distinct value.
///
/// Headers a user redacts by name are written by ``HTTPSnapshot`` with ``HTTPSnapshot/redactedValue``.
/// One redactor serves a whole run, so numbers stay the same from snapshot to snapshot.
struct Redactor {
    /// A user's pattern and the text it was written as.
    struct Pattern {
        var source: String
        var regex: Regex<AnyRegexOutput>
    }

    private var patterns: [Pattern]
    /// The session ids and CSRF tokens met so far, and their placeholders: replaced wherever
    /// they appear.
    private var ids: [String: String] = [:]
    /// The values users' patterns matched, and their placeholders: replaced where they match.
    private var matched: [String: String] = [:]
    private var counts: [String: Int] = [:]

    init(patterns: [Pattern] = []) {
        self.patterns = patterns
    }

    mutating func redact(_ text: String) -> String {
        // Ids first: they are learned here and replaced everywhere.
        for match in text.matches(of: Self.sessionCookie) {
            _ = Self.placeholder(for: String(match.output.1), label: "session", in: &ids, counts: &counts)
        }
        for match in text.matches(of: Self.csrfField) {
            _ = Self.placeholder(for: String(match.output.1), label: "csrf", in: &ids, counts: &counts)
        }
        var result = text
        // Longest first, so that no id is replaced inside a longer one; ties in a fixed order.
        for (value, placeholder) in ids.sorted(by: { ($0.key.count, $0.key) > ($1.key.count, $1.key) }) {
            result = result.replacingOccurrences(of: value, with: placeholder)
        }
        for date in [Self.isoTimestamp, Self.httpDate] { result = result.replacing(date, with: "<date>") }
        for index in patterns.indices {
            result = replaceMatches(of: patterns[index].regex, in: result)
        }
        return result
    }

    private mutating func replaceMatches(of regex: Regex<AnyRegexOutput>, in text: String) -> String {
        var output = ""
        var position = text.startIndex
        for match in text.matches(of: regex) {
            let range = (match.output.count > 1 ? match.output[1].range : nil) ?? match.range
            guard range.lowerBound >= position else { continue }
            output += text[position..<range.lowerBound]
            output += Self.placeholder(for: String(text[range]), label: "redacted", in: &matched, counts: &counts)
            position = range.upperBound
        }
        return output + text[position...]
    }

    /// The placeholder of `value` in `known`, made `<label-N>` the first time (N counts per label).
    private static func placeholder(
        for value: String, label: String, in known: inout [String: String], counts: inout [String: Int]
    ) -> String {
        if let existing = known[value] { return existing }
        let number = counts[label, default: 0] + 1
        counts[label] = number
        let made = "<\(label)-\(number)>"
        known[value] = made
        return made
    }

    // Regexes are not Sendable, so each use makes its own from the literal.
    static var sessionCookie: Regex<(Substring, Substring)> { #/tabstage_session=([0-9A-Za-z]+)/# }
    static var csrfField: Regex<(Substring, Substring)> { #/name="csrf" value="([^"<>]+)"/# }
    static var isoTimestamp: Regex<Substring> {
        #/[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(?:\.[0-9]+)?(?:Z|[+-][0-9]{2}:?[0-9]{2})/#
    }
    static var httpDate: Regex<Substring> {
        #/(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun), [0-9]{2} [A-Z][a-z]{2} [0-9]{4} [0-9]{2}:[0-9]{2}:[0-9]{2} GMT/#
    }
}
