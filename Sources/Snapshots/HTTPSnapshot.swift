import PNGCodec
import TabStageApp

/// One HTTP response written as reviewable text: the status line, an allow-list of headers
/// in sorted order, a blank line, and the body.
///
/// Headers that change from run to run or only restate the body (`Date`, `Content-Length`,
/// `Connection`) are left out, so a snapshot differs only where the page did.
public struct HTTPSnapshot: Equatable, Sendable {
    /// How the body is written.
    public enum BodyLayout: Sendable {
        /// Text as sent; anything else by size and a fingerprint of its bytes.
        case asSent
        /// HTML one element a line (``HTMLLayout``); a PNG by its size and a fingerprint of its
        /// pixels, so a change of compression alone is no change; other bodies as `asSent`.
        case forReview
    }

    /// What a header named in `redactedHeaders` shows instead of its value.
    public static let redactedValue = "<redacted>"

    public static let recordedHeaders: Set<String> = [
        "allow", "cache-control", "content-security-policy", "content-type", "etag", "location",
        "referrer-policy", "set-cookie", "vary", "x-content-type-options", "x-frame-options",
    ]

    public let text: String

    /// - Parameters:
    ///   - statusLine: as received, e.g. `HTTP/1.1 200 OK`.
    ///   - headers: in any order; names compare case-insensitively.
    ///   - redactedHeaders: lowercased names of headers kept beside the allow-list, each with
    ///     ``redactedValue`` for its value (a request id a proxy adds, say).
    public init(
        statusLine: String, headers: [(name: String, value: String)], body: [UInt8], layout: BodyLayout = .asSent,
        redactedHeaders: Set<String> = []
    ) {
        var lines = [statusLine]
        let contentType = headers.first { $0.name.lowercased() == "content-type" }?.value.lowercased() ?? ""
        // An image's ETag names its bytes; in review its pixels stand for it, so that a change of
        // compression alone is no change.
        let isReviewedImage = layout == .forReview && contentType.hasPrefix("image/png")
        let kept = headers.compactMap { header -> (name: String, value: String)? in
            let name = header.name.lowercased()
            if isReviewedImage && name == "etag" { return nil }
            if redactedHeaders.contains(name) { return (name: name, value: Self.redactedValue) }
            return Self.recordedHeaders.contains(name) ? (name: name, value: header.value) : nil
        }
        .sorted { ($0.name, $0.value) < ($1.name, $1.value) }
        for header in kept {
            lines.append("\(Self.canonicalName(header.name)): \(header.value)")
        }
        lines.append("")
        switch layout {
        case .asSent: lines.append(Self.bodyText(body, contentType: contentType))
        case .forReview: lines.append(Self.reviewText(body, contentType: contentType))
        }
        text = lines.joined(separator: "\n")
    }

    public init(text: String) {
        self.text = text
    }

    /// A unified diff from `expected` to `self`, or nil when they are equal.
    public func difference(from expected: HTTPSnapshot, highlight: Bool = false) -> String? {
        guard text != expected.text else { return nil }
        return LineDiff(expected: expected.text, actual: text).unified(highlight: highlight)
    }

    static func reviewText(_ body: [UInt8], contentType: String) -> String {
        let type = contentType.lowercased()
        if type.hasPrefix("text/html"), let html = String(validating: body, as: UTF8.self) {
            return HTMLLayout.laidOut(html)
        }
        if type.hasPrefix("image/png"), let image = try? DecodedPNG(body) {
            return PNGSummary(image).description + "\n"
        }
        return bodyText(body, contentType: contentType)
    }

    /// Text bodies are kept as they are; anything else by size and a fingerprint, which is
    /// enough to see that an image changed without putting bytes in a text file.
    static func bodyText(_ body: [UInt8], contentType: String) -> String {
        let type = contentType.lowercased()
        let isText =
            type.hasPrefix("text/") || type.contains("json") || type.contains("javascript")
            || type.contains("xml") || type.isEmpty
        if isText, let text = String(validating: body, as: UTF8.self) {
            return text
        }
        return "<\(body.count) bytes, fnv1a64 \(fingerprint(body))>"
    }

    static func fingerprint(_ bytes: [UInt8]) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes {
            hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
        }
        let digits = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }

    static func canonicalName(_ lowercased: String) -> String {
        switch lowercased {
        case "etag": return "ETag"
        case "x-content-type-options": return "X-Content-Type-Options"
        case "content-security-policy": return "Content-Security-Policy"
        default:
            return lowercased.split(separator: "-").map { $0.prefix(1).uppercased() + $0.dropFirst() }
                .joined(separator: "-")
        }
    }
}

/// How a PNG body is written in a snapshot: its size and a fingerprint of its pixels (the image
/// itself is kept in a file beside the snapshot).
struct PNGSummary: Equatable, CustomStringConvertible {
    var width: Int
    var height: Int
    var pixelFingerprint: String

    init(_ image: DecodedPNG) {
        width = image.width
        height = image.height
        pixelFingerprint = HTTPSnapshot.fingerprint(image.rgba)
    }

    /// `<PNG 80 x 80, pixels fnv1a64 0123456789abcdef>`.
    var description: String { "<PNG \(width) x \(height), pixels fnv1a64 \(pixelFingerprint)>" }
}
