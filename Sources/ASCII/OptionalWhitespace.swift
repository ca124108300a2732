/// HTTP's optional whitespace (RFC 9110 §5.6.3: spaces and horizontal tabs) around the parts of
/// a header read on its bytes: the one rule for every such reader (cookies, `Accept-Language`).
public enum OptionalWhitespace {
    /// `part` of `bytes` without the spaces and tabs at either end.
    @inlinable
    public static func trimmed(_ part: Range<Int>, in bytes: Span<UInt8>) -> Range<Int> {
        func isSpace(_ byte: UInt8) -> Bool { byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") }
        var start = part.lowerBound
        var end = part.upperBound
        while start < end && isSpace(bytes[start]) { start += 1 }
        while end > start && isSpace(bytes[end - 1]) { end -= 1 }
        return start..<end
    }
}
