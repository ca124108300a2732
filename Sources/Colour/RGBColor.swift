import ASCII
import Foundation

/// An opaque sRGB colour, written `#RRGGBB` or `RRGGBB`: the one colour type of the app's tint,
/// of the page's contrast-checked shades (Views) and of the icon pictures (Rasterizer).
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
                guard let digit = HexDigit.value(byte) else { return nil }
                value = value << 4 | UInt32(digit)
            }
            return value
        }
        guard let value = parsed else { return nil }
        self.init(red: UInt8(value >> 16), green: UInt8((value >> 8) & 0xFF), blue: UInt8(value & 0xFF))
    }

    public static let black = RGBColor(red: 0, green: 0, blue: 0)
    public static let white = RGBColor(red: 255, green: 255, blue: 255)

    /// `#RRGGBB`, upper case.
    public var description: String {
        let hex = (Int(red) << 16) | (Int(green) << 8) | Int(blue)
        let text = String(hex, radix: 16, uppercase: true)
        return "#" + String(repeating: "0", count: 6 - text.count) + text
    }

    /// WCAG 2's relative luminance, from 0 (black) to 1 (white).
    public var relativeLuminance: Double {
        func linear(_ component: UInt8) -> Double {
            let value = Double(component) / 255
            return value <= 0.04045 ? value / 12.92 : pow((value + 0.055) / 1.055, 2.4)
        }
        return 0.2126 * linear(red) + 0.7152 * linear(green) + 0.0722 * linear(blue)
    }

    /// The WCAG contrast ratio between two colours, from 1 to 21.
    public func contrast(with other: RGBColor) -> Double {
        let lighter = max(relativeLuminance, other.relativeLuminance)
        let darker = min(relativeLuminance, other.relativeLuminance)
        return (lighter + 0.05) / (darker + 0.05)
    }

    /// A contrast ratio as people write it, to one decimal: `1.3:1`.
    public static func ratioText(_ ratio: Double) -> String {
        let tenths = Int((ratio * 10).rounded())
        return "\(tenths / 10).\(tenths % 10):1"
    }

    /// Mixed with white: `amount` 0 keeps the colour, 1 is white.
    public func lightened(by amount: Double) -> RGBColor {
        func scaled(_ component: UInt8) -> UInt8 {
            UInt8((Double(component) + (255 - Double(component)) * amount).rounded())
        }
        return RGBColor(red: scaled(red), green: scaled(green), blue: scaled(blue))
    }

    /// Mixed with black: `amount` 0 keeps the colour, 1 is black.
    public func darkened(by amount: Double) -> RGBColor {
        func scaled(_ component: UInt8) -> UInt8 { UInt8((Double(component) * (1 - amount)).rounded()) }
        return RGBColor(red: scaled(red), green: scaled(green), blue: scaled(blue))
    }
}
