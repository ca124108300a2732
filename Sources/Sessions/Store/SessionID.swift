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
