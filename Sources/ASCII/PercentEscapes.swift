/// Strict percent-decoding (RFC 3986) on bytes: each `%` must be followed by two hex digits, in
/// either case; a stray `%` is an error, never guessed at.
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
}
