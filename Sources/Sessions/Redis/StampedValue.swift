/// A session as Redis holds it: a stamp, `#` and 16 hex digits new with every write, then the
/// state as JSON. A change compares the stamp alone, so Redis reads 17 bytes of the value, not
/// all of it; a value written before stamps (no JSON starts with `#`) is compared whole.
enum StampedValue {
    static let stampLength = 17

    static func make(json: some Collection<UInt8>) -> [UInt8] {
        let digits = Array(String(UInt64.random(in: .min ... .max), radix: 16).utf8)
        var value = [UInt8(ascii: "#")]
        value.reserveCapacity(stampLength + json.count)
        value += repeatElement(UInt8(ascii: "0"), count: stampLength - 1 - digits.count)
        value += digits
        value += json
        return value
    }

    /// The stamp that starts `value`, nil for a value from before stamps.
    static func stamp(of value: [UInt8]) -> ArraySlice<UInt8>? {
        guard value.count >= stampLength, value.first == UInt8(ascii: "#") else { return nil }
        return value.prefix(stampLength)
    }

    /// The JSON of `value`, after its stamp if it has one.
    static func json(in value: [UInt8]) -> ArraySlice<UInt8> {
        stamp(of: value) == nil ? value[...] : value.dropFirst(stampLength)
    }
}
