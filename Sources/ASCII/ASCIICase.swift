/// ASCII case on bytes: tokens of HTTP and language tags compare ignoring it (RFC 9110 §5.1,
/// RFC 5646 §2.1.1); any byte that is not an ASCII letter is its own case.
public enum ASCIICase {
    /// `byte` with `A`–`Z` made `a`–`z`.
    @inlinable
    public static func lowercased(_ byte: UInt8) -> UInt8 {
        byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte | 0x20 : byte
    }
}
