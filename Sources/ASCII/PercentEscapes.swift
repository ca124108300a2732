/// Strict percent-decoding (RFC 3986) on bytes: each `%` must be followed by two hex digits, in
/// either case; a stray `%` is an error, never guessed at. And the one rule of what an encoder
/// leaves as it is, for every place that writes escapes (HTTPServer's forms, the views' URLs, the
/// snapshot tool's request lists).
public enum PercentEscapes {
    /// The bytes `bytes` stand for, `+` read as a space when `plusAsSpace` (as in a form); nil
    /// when a `%` is not followed by two hex digits.
    public static func decode(_ bytes: Span<UInt8>, plusAsSpace: Bool = false) -> [UInt8]? {
        var decoded: [UInt8] = []
        decoded.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "%") {
                guard index + 2 < bytes.count, let high = HexDigit.value(bytes[index + 1]),
                    let low = HexDigit.value(bytes[index + 2])
                else { return nil }
                decoded.append(high << 4 | low)
                index += 3
            } else {
                decoded.append(plusAsSpace && byte == UInt8(ascii: "+") ? UInt8(ascii: " ") : byte)
                index += 1
            }
        }
        return decoded
    }

    /// The text `text` stands for; nil when a `%` is not followed by two hex digits or the
    /// decoded bytes are not UTF-8.
    public static func decodedText(_ text: Substring) -> String? {
        decode(text.utf8.span).flatMap { String(validating: $0, as: UTF8.self) }
    }

    /// RFC 3986's unreserved characters (letters, digits, `-._~`): the bytes an encoder leaves as
    /// they are. Every other byte is written `%XX`, in upper-case hex (RFC 3986 asks for it).
    @inlinable
    public static func isUnreserved(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
            UInt8(ascii: "~"):
            true
        default: false
        }
    }

    /// `text` with every byte but the unreserved characters written `%XX`.
    public static func encode(_ text: some StringProtocol) -> String {
        let digits: StaticString = "0123456789ABCDEF"
        var encoded: [UInt8] = []
        encoded.reserveCapacity(text.utf8.count)
        for byte in text.utf8 {
            if isUnreserved(byte) {
                encoded.append(byte)
            } else {
                encoded.append(UInt8(ascii: "%"))
                encoded.append(digits.utf8Start[Int(byte >> 4)])
                encoded.append(digits.utf8Start[Int(byte & 0x0F)])
            }
        }
        return String(decoding: encoded, as: UTF8.self)
    }
}
