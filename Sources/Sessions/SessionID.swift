/// A session id: 128 bits, written in a cookie as 32 lowercase hex digits.
///
/// Kept as two integers rather than a String so that 100,000 live sessions cost 16 bytes
/// of key each, not a heap-allocated string.
public struct SessionID: Hashable, Sendable, CustomStringConvertible {
    public let high: UInt64
    public let low: UInt64

    public init(high: UInt64, low: UInt64) {
        self.high = high
        self.low = low
    }

    /// Parses a cookie value; anything but exactly 32 lowercase hex digits is refused, so a
    /// forged or truncated cookie can never name a session.
    public init?(cookieValue: some StringProtocol) {
        // One call through the protocol, then a loop over plain bytes (this runs per request).
        let parsed =
            cookieValue.utf8.withContiguousStorageIfAvailable { Self.parse($0) }
            ?? Array(cookieValue.utf8).withUnsafeBufferPointer { Self.parse($0) }
        guard let parsed else { return nil }
        self = parsed
    }

    /// The same for the `Substring` a cookie lookup returns, compiled for it: the generic
    /// initializer, called from another module, ran unspecialized (1,050 instructions per
    /// request through its witnesses, this 770).
    public init?(cookieValue: Substring) {
        let parsed =
            cookieValue.utf8.withContiguousStorageIfAvailable { Self.parse($0) }
            ?? Array(cookieValue.utf8).withUnsafeBufferPointer { Self.parse($0) }
        guard let parsed else { return nil }
        self = parsed
    }

    private static func parse(_ bytes: UnsafeBufferPointer<UInt8>) -> SessionID? {
        guard bytes.count == 32, let base = UnsafeRawPointer(bytes.baseAddress) else { return nil }
        func digits(_ index: Int) -> UInt64? {
            hexValue(
                ofEightDigits: UInt64(littleEndian: base.loadUnaligned(fromByteOffset: index * 8, as: UInt64.self)))
        }
        guard let first = digits(0), let second = digits(1), let third = digits(2), let fourth = digits(3) else {
            return nil
        }
        return SessionID(high: first << 32 | second, low: third << 32 | fourth)
    }

    /// The value of eight digits read as one little-endian word (the first digit in the lowest
    /// byte), or nil unless each is `0`-`9` or `a`-`f`: all eight bytes checked and decoded at
    /// once (a byte at a time, with a branch per digit, an id cost 780 instructions).
    static func hexValue(ofEightDigits word: UInt64) -> UInt64? {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highBits = ones &* 0x80
        // With every byte below 0x80, adding to each byte carries into no other.
        guard word & highBits == 0 else { return nil }
        func atLeast(_ low: UInt64) -> UInt64 { (word &+ ones &* (0x80 - low)) & highBits }
        func above(_ high: UInt64) -> UInt64 { (word &+ ones &* (0x7F - high)) & highBits }
        let decimal = atLeast(0x30) & ~above(0x39)
        let letter = atLeast(0x61) & ~above(0x66)
        guard decimal | letter == highBits else { return nil }
        // `0`-`9` keep their low four bits; `a`-`f` have 1-6 there and are 9 more.
        var nibbles = (word & (ones &* 0x0F)) &+ (letter >> 7) &* 9
        // The first digit to the top, then each pair of neighbours into one field, twice as wide
        // each time.
        nibbles = nibbles.byteSwapped
        nibbles = (nibbles | nibbles >> 4) & 0x00FF_00FF_00FF_00FF
        nibbles = (nibbles | nibbles >> 8) & 0x0000_FFFF_0000_FFFF
        return (nibbles | nibbles >> 16) & 0x0000_0000_FFFF_FFFF
    }

    public var description: String { Self.hex(high) + Self.hex(low) }

    private static func hex(_ value: UInt64) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}

/// Where new session ids come from: the system's random source when serving, a seeded
/// sequence in deterministic mode so that snapshot tests see the same ids every run.
public protocol SessionIDSource: Sendable {
    func next() -> SessionID
}

/// 128 bits from the system's cryptographically secure generator.
public struct RandomSessionIDs: SessionIDSource {
    public init() {}

    public func next() -> SessionID {
        var generator = SystemRandomNumberGenerator()
        return SessionID(high: generator.next(), low: generator.next())
    }
}
