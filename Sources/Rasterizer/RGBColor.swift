/// An opaque sRGB colour, written `#RRGGBB` or `RRGGBB`.
public struct RGBColor: Hashable, Sendable, CustomStringConvertible {
    public let red: UInt8
    public let green: UInt8
    public let blue: UInt8

    public init(red: UInt8, green: UInt8, blue: UInt8) {
        self.red = red
        self.green = green
        self.blue = blue
    }

    /// Parses `#RRGGBB` or `RRGGBB` (hex digits in either case); nil for anything else.
    public init?(hex text: String) {
        var text = text
        let parsed = text.withUTF8 { bytes -> UInt32? in
            var digits = bytes[...]
            if digits.first == UInt8(ascii: "#") { digits = digits.dropFirst() }
            guard digits.count == 6 else { return nil }
            var value: UInt32 = 0
            for byte in digits {
                let digit: UInt8
                switch byte {
                case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
                case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
                case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
                default: return nil
                }
                value = value << 4 | UInt32(digit)
            }
            return value
        }
        guard let value = parsed else { return nil }
        self.init(red: UInt8(value >> 16), green: UInt8((value >> 8) & 0xFF), blue: UInt8(value & 0xFF))
    }

    /// The seed's tab tint, docs/glow.md's reference colour for the selected state.
    public static let defaultTint = RGBColor(red: 0xFF, green: 0x95, blue: 0x00)
    public static let black = RGBColor(red: 0, green: 0, blue: 0)
    /// iOS's secondary grey, which reads as "not chosen" beside the tint: the fill of unselected
    /// icons on a light bar, on the stage and from `tabstage icon` alike.
    public static let unselectedGrey = RGBColor(red: 0x8E, green: 0x8E, blue: 0x93)

    /// `#RRGGBB`, upper case.
    public var description: String {
        let hex = (Int(red) << 16) | (Int(green) << 8) | Int(blue)
        let text = String(hex, radix: 16, uppercase: true)
        return "#" + String(repeating: "0", count: 6 - text.count) + text
    }
}

/// Which picture a tab icon gets.
public enum IconState: String, Sendable, CaseIterable {
    /// The gradient glow: tint, white gloss, drop shadow.
    case selected
    /// A flat fill in one colour.
    case unselected
    /// A flat fill in the tint: a selected tab as iOS draws it since iOS 7.
    case tinted
}

/// The device scale of a render: the 80 × 80 pt cell becomes 80s × 80s pixels.
public enum IconScale: Int, Sendable, CaseIterable {
    case x1 = 1
    case x2 = 2
    case x3 = 3
}
