import ASCII

/// Why a percent-encoded string could not be decoded.
public enum PercentDecodingError: Error, Equatable, CustomStringConvertible {
    case invalidEscape(String)
    case invalidUTF8(String)

    public var description: String {
        switch self {
        case .invalidEscape(let text): "invalid percent-encoding in '\(text)'"
        case .invalidUTF8(let text): "percent-encoding of '\(text)' is not valid UTF-8"
        }
    }
}

/// Strict percent-decoding: a stray `%` or bytes that are not UTF-8 are errors, never guessed at.
public enum PercentDecoding {
    /// Decodes on the text's UTF-8 bytes (a URL is octets, RFC 3986), never on Characters.
    public static func decode(_ text: Substring, plusAsSpace: Bool = false) throws(PercentDecodingError) -> String {
        try decode(text.utf8.span, plusAsSpace: plusAsSpace)
    }

    /// Decodes a part of a target or a form read on its bytes: the bytes of a String, cut next
    /// to ASCII delimiters, so valid UTF-8 before decoding. The parsers hand their parts here as
    /// spans of the String they scan, so a part is never made a Substring first.
    static func decode(_ bytes: Span<UInt8>, plusAsSpace: Bool = false) throws(PercentDecodingError) -> String {
        var escapes = false
        for index in bytes.indices
        where bytes[index] == UInt8(ascii: "%") || (plusAsSpace && bytes[index] == UInt8(ascii: "+")) {
            escapes = true
            break
        }
        guard escapes else {
            guard let text = try? UTF8Span(validating: bytes) else { throw .invalidUTF8(String(lossy: bytes)) }
            return String(copying: text)
        }
        guard let decoded = PercentEscapes.decode(bytes, plusAsSpace: plusAsSpace) else {
            throw .invalidEscape(String(lossy: bytes))
        }
        guard let string = String(validating: decoded, as: UTF8.self) else { throw .invalidUTF8(String(lossy: bytes)) }
        return string
    }

    /// Encodes everything but unreserved characters (RFC 3986), for building URLs and forms.
    public static func encode(_ text: String) -> String {
        PercentEscapes.encode(text)
    }
}

extension String {
    /// The bytes as text for a message, any invalid UTF-8 replaced.
    init(lossy bytes: Span<UInt8>) {
        var copied: [UInt8] = []
        copied.reserveCapacity(bytes.count)
        for index in bytes.indices { copied.append(bytes[index]) }
        self.init(decoding: copied, as: UTF8.self)
    }
}

extension StringProtocol {
    /// The text at these UTF-8 offsets, which lie on scalar boundaries (next to an ASCII
    /// delimiter, say): how the parsers here turn the offsets they scan into text.
    func part(atUTF8 offsets: Range<Int>) -> SubSequence {
        let start = utf8.index(utf8.startIndex, offsetBy: offsets.lowerBound)
        return self[start..<utf8.index(start, offsetBy: offsets.count)]
    }
}
