/// Hex digits read as bytes: the one parser of them, each caller keeping its own rule on case.
public enum HexDigit {
    /// The value (0...15) of `byte` as a hex digit: `0`–`9`, `a`–`f`, and `A`–`F` unless
    /// `lowercaseOnly`; nil for any other byte. Inlinable, so a caller's loop compiles it in.
    @inlinable
    public static func value(_ byte: UInt8, lowercaseOnly: Bool = false) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F") where !lowercaseOnly: byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
