import ASCII

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
    /// forged or truncated cookie can never name a session. Inlinable, so each caller gets it
    /// compiled for its own string type (it runs on every request).
    @inlinable
    public init?(cookieValue: some StringProtocol) {
        let parsed =
            cookieValue.utf8.withContiguousStorageIfAvailable { Self.parse($0) } ?? Self.parse(Array(cookieValue.utf8))
        guard let parsed else { return nil }
        self = parsed
    }

    /// The id a cookie's bytes spell: 32 lowercase hex digits, else nil (as `init(cookieValue:)`).
    /// Read eight digits at a time (`eightDigits`): this runs on every request with a cookie.
    public init?(cookieBytes: UnsafeBufferPointer<UInt8>) {
        guard cookieBytes.count == 32, let base = cookieBytes.baseAddress else { return nil }
        let raw = UnsafeRawPointer(base)
        guard let first = Self.eightDigits(raw, at: 0), let second = Self.eightDigits(raw, at: 8),
            let third = Self.eightDigits(raw, at: 16), let fourth = Self.eightDigits(raw, at: 24)
        else { return nil }
        self.init(high: UInt64(first) << 32 | UInt64(second), low: UInt64(third) << 32 | UInt64(fourth))
    }

    /// Eight lowercase hex digits at `offset` as one number (the first digit the highest), else
    /// nil: one word read and checked for all eight bytes at once. With every byte below 0x80,
    /// `(byte | 0x80) - k` keeps its top bit exactly when `byte >= k`, and no byte borrows from
    /// the next; a digit's value is its low four bits, plus 9 for `a`–`f`.
    private static func eightDigits(_ raw: UnsafeRawPointer, at offset: Int) -> UInt32? {
        let word = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
        let tops: UInt64 = 0x8080_8080_8080_8080
        guard word & tops == 0 else { return nil }
        func atLeast(_ byte: UInt64) -> UInt64 { ((word | tops) &- byte &* 0x0101_0101_0101_0101) & tops }
        let digits = atLeast(0x30) & ~atLeast(0x3A)
        let letters = atLeast(0x61) & ~atLeast(0x67)
        guard digits | letters == tops else { return nil }
        // The first digit is the lowest byte: pairs, then fours, then all eight, first digit highest.
        var value = (word & 0x0F0F_0F0F_0F0F_0F0F) &+ (letters >> 7) &* 9
        value = (value << 4 | value >> 8) & 0x00FF_00FF_00FF_00FF
        value = (value << 8 | value >> 16) & 0x0000_FFFF_0000_FFFF
        value = (value << 16 | value >> 32) & 0xFFFF_FFFF
        return UInt32(truncatingIfNeeded: value)
    }

    /// 32 lowercase hex digits, the first 16 the high half.
    @inlinable
    static func parse<Digits: RandomAccessCollection<UInt8>>(_ digits: Digits) -> SessionID? where Digits.Index == Int {
        guard digits.count == 32, let high = half(digits, from: 0), let low = half(digits, from: 16) else { return nil }
        return SessionID(high: high, low: low)
    }

    /// The 16 digits from `offset` as one number: each half in a loop of its own, so that no
    /// digit asks which half it belongs to.
    @inlinable
    static func half<Digits: RandomAccessCollection<UInt8>>(_ digits: Digits, from offset: Int) -> UInt64?
    where Digits.Index == Int {
        var value: UInt64 = 0
        for position in offset..<offset + 16 {
            guard let digit = digitValue(digits[digits.startIndex + position]) else { return nil }
            value = value << 4 | digit
        }
        return value
    }

    /// The value of one lowercase hex digit.
    @inlinable
    static func digitValue(_ byte: UInt8) -> UInt64? {
        HexDigit.value(byte, lowercaseOnly: true).map { UInt64($0) }
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
