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
    public static func decode(_ text: Substring, plusAsSpace: Bool = false) throws(PercentDecodingError) -> String {
        let utf8 = text.utf8
        if !utf8.contains(UInt8(ascii: "%")) && !(plusAsSpace && utf8.contains(UInt8(ascii: "+"))) {
            return String(text)
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(utf8.count)
        var index = utf8.startIndex
        while index != utf8.endIndex {
            let byte = utf8[index]
            if byte == UInt8(ascii: "%") {
                let high = utf8.index(after: index)
                guard high != utf8.endIndex else { throw .invalidEscape(String(text)) }
                let low = utf8.index(after: high)
                guard low != utf8.endIndex, let highValue = hexValue(utf8[high]), let lowValue = hexValue(utf8[low])
                else { throw .invalidEscape(String(text)) }
                bytes.append(highValue << 4 | lowValue)
                index = utf8.index(after: low)
            } else {
                bytes.append(plusAsSpace && byte == UInt8(ascii: "+") ? UInt8(ascii: " ") : byte)
                index = utf8.index(after: index)
            }
        }
        guard let decoded = String(validating: bytes, as: UTF8.self) else { throw .invalidUTF8(String(text)) }
        return decoded
    }

    /// Encodes everything but unreserved characters (RFC 3986), for building URLs and forms.
    public static func encode(_ text: String) -> String {
        var result = ""
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
                UInt8(ascii: "~"):
                result.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                let digits = Array("0123456789ABCDEF".unicodeScalars)
                result.unicodeScalars.append("%")
                result.unicodeScalars.append(digits[Int(byte >> 4)])
                result.unicodeScalars.append(digits[Int(byte & 0x0F)])
            }
        }
        return result
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
