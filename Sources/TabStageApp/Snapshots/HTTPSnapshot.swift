/// One HTTP response written as reviewable text: the status line, an allow-list of headers
/// in sorted order, a blank line, and the body.
///
/// Headers that change from run to run or only restate the body (`Date`, `Content-Length`,
/// `Connection`) are left out, so a snapshot differs only where the page did.
public struct HTTPSnapshot: Equatable, Sendable {
    public static let recordedHeaders: Set<String> = [
        "allow", "cache-control", "content-security-policy", "content-type", "etag", "location",
        "referrer-policy", "set-cookie", "vary", "x-content-type-options", "x-frame-options",
    ]

    public let text: String

    /// - Parameters:
    ///   - statusLine: as received, e.g. `HTTP/1.1 200 OK`.
    ///   - headers: in any order; names compare case-insensitively.
    public init(statusLine: String, headers: [(name: String, value: String)], body: [UInt8]) {
        var lines = [statusLine]
        let kept = headers.filter { Self.recordedHeaders.contains($0.name.lowercased()) }
            .map { (name: $0.name.lowercased(), value: $0.value) }
            .sorted { ($0.name, $0.value) < ($1.name, $1.value) }
        for header in kept {
            lines.append("\(Self.canonicalName(header.name)): \(header.value)")
        }
        let contentType = kept.first { $0.name == "content-type" }?.value ?? ""
        lines.append("")
        lines.append(Self.bodyText(body, contentType: contentType))
        text = lines.joined(separator: "\n")
    }

    public init(text: String) {
        self.text = text
    }

    /// A readable line diff from `expected` to `self`, or nil when they are equal.
    public func difference(from expected: HTTPSnapshot) -> String? {
        guard text != expected.text else { return nil }
        return LineDiff.unified(
            old: expected.text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init),
            new: text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init))
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
