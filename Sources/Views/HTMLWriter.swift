/// Writes HTML straight into bytes.
///
/// Measured on this machine (LIBMICROHTTPD.md): building a 4 KB page by String interpolation
/// costs about 14.5 µs, appending to a byte buffer about 3.3 µs, and escaping on UTF-8 bytes
/// is five times faster than on Characters. Every text that did not come from this module goes
/// through `text` or `attribute`, which escape; `raw` takes only markup written here.
public struct HTMLWriter: Sendable {
    public private(set) var bytes: [UInt8]

    public init(capacity: Int = 8192) {
        bytes = []
        bytes.reserveCapacity(capacity)
    }

    /// Markup written in this module's source.
    public mutating func raw(_ markup: StaticString) {
        markup.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    /// Markup built from trusted pieces (numbers, already-escaped fragments).
    public mutating func trusted(_ markup: String) {
        bytes.append(contentsOf: markup.utf8)
    }

    public mutating func number(_ value: Int) {
        bytes.append(contentsOf: String(value).utf8)
    }

    /// Text content, escaped for an element body or a quoted attribute value.
    public mutating func text(_ value: some StringProtocol) {
        for byte in value.utf8 {
            switch byte {
            case UInt8(ascii: "&"): bytes.append(contentsOf: [0x26, 0x61, 0x6D, 0x70, 0x3B])  // &amp;
            case UInt8(ascii: "<"): bytes.append(contentsOf: [0x26, 0x6C, 0x74, 0x3B])  // &lt;
            case UInt8(ascii: ">"): bytes.append(contentsOf: [0x26, 0x67, 0x74, 0x3B])  // &gt;
            case UInt8(ascii: "\""): bytes.append(contentsOf: [0x26, 0x71, 0x75, 0x6F, 0x74, 0x3B])  // &quot;
            case UInt8(ascii: "'"): bytes.append(contentsOf: [0x26, 0x23, 0x33, 0x39, 0x3B])  // &#39;
            default: bytes.append(byte)
            }
        }
    }

    /// ` name="value"`, the value escaped.
    public mutating func attribute(_ name: StaticString, _ value: some StringProtocol) {
        raw(" ")
        raw(name)
        raw("=\"")
        text(value)
        raw("\"")
    }

    /// A URL path segment or query value, percent-encoded (then safe in an attribute as is).
    public mutating func urlComponent(_ value: some StringProtocol) {
        bytes.append(contentsOf: URLComponentEncoding.encode(value))
    }
}

public enum URLComponentEncoding {
    /// Percent-encodes everything but RFC 3986's unreserved characters.
    public static func encode(_ value: some StringProtocol) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(value.utf8.count)
        let hex = Array("0123456789ABCDEF".utf8)
        for byte in value.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."),
                UInt8(ascii: "_"), UInt8(ascii: "~"):
                output.append(byte)
            default:
                output.append(UInt8(ascii: "%"))
                output.append(hex[Int(byte >> 4)])
                output.append(hex[Int(byte & 0x0F)])
            }
        }
        return output
    }

    public static func encodedString(_ value: some StringProtocol) -> String {
        String(decoding: encode(value), as: UTF8.self)
    }
}
