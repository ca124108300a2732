import Foundation
import TabModel

/// The colours an app's tint gives the page, each contrast-checked (WCAG 2 relative luminance)
/// against the light backgrounds it is drawn on, so a light tint still passes: text and buttons
/// use a shade of the tint darkened until it reads, focus rings a shade that stands out.
public struct TintPalette: Sendable, Equatable {
    /// A colour as 0...255 components.
    public struct Colour: Sendable, Equatable, CustomStringConvertible {
        public var red: Int
        public var green: Int
        public var blue: Int

        public init(red: Int, green: Int, blue: Int) {
            self.red = red
            self.green = green
            self.blue = blue
        }

        /// `#RRGGBB`.
        public var description: String {
            "#"
                + [red, green, blue].map { component in
                    let digits = String(component, radix: 16, uppercase: true)
                    return digits.count == 1 ? "0" + digits : digits
                }.joined()
        }

        var relativeLuminance: Double {
            func linear(_ component: Int) -> Double {
                let value = Double(component) / 255
                return value <= 0.04045 ? value / 12.92 : pow((value + 0.055) / 1.055, 2.4)
            }
            return 0.2126 * linear(red) + 0.7152 * linear(green) + 0.0722 * linear(blue)
        }

        /// The WCAG contrast ratio between two colours, from 1 to 21.
        func contrast(with other: Colour) -> Double {
            let (lighter, darker) = (
                max(relativeLuminance, other.relativeLuminance), min(relativeLuminance, other.relativeLuminance)
            )
            return (lighter + 0.05) / (darker + 0.05)
        }

        /// Mixed with white: `amount` 0 keeps the colour, 1 is white.
        func lightened(by amount: Double) -> Colour {
            func scaled(_ component: Int) -> Int {
                Int((Double(component) + (255 - Double(component)) * amount).rounded())
            }
            return Colour(red: scaled(red), green: scaled(green), blue: scaled(blue))
        }

        /// Mixed with black: `amount` 0 keeps the colour, 1 is black.
        func darkened(by amount: Double) -> Colour {
            func scaled(_ component: Int) -> Int { Int((Double(component) * (1 - amount)).rounded()) }
            return Colour(red: scaled(red), green: scaled(green), blue: scaled(blue))
        }
    }

    /// The darkest background the tint's colours sit on: the selected cell of the vertical bar
    /// (`.tab-bar-vertical .tab[aria-current]` in Public/css/tabstage.css); the page and the
    /// bars are lighter, so what reads here reads there.
    public static let darkestBackground = Colour(red: 0xEC, green: 0xEC, blue: 0xF1)
    /// The lightest background of the dark appearance: its selected cell (`--current-cell`); its
    /// bars, pages and stage are darker.
    public static let lightestDarkBackground = Colour(red: 0x3A, green: 0x3A, blue: 0x3C)
    /// Text (and white text on a button of it) needs 4.5:1; a focus ring, as any part of a
    /// control, 3:1.
    public static let textContrast = 4.5
    public static let ringContrast = 3.0

    /// The tint as written.
    public var tint: Colour
    /// The tint, or the lightest shade of it that reads as text: links, the selected tab's
    /// title, button faces (with white text).
    public var text: Colour
    /// The tint, or the lightest shade of it that stands out as a focus ring.
    public var ring: Colour
    /// The ring of the dark appearance: the tint, or the darkest tint of it (mixed with white)
    /// that stands out at 3:1 against the dark bar, page and selected cell.
    public var ringOnDark: Colour

    public init(tint: Colour) {
        self.tint = tint
        text = Self.shade(of: tint, reaching: Self.textContrast)
        ring = Self.shade(of: tint, reaching: Self.ringContrast)
        ringOnDark = Self.tintOnDark(of: tint, reaching: Self.ringContrast)
    }

    /// The palette of an app; the system blue for a tint that is not `#RRGGBB` (the loader
    /// refuses those).
    public init(app: AppDescription) {
        let components = app.tintComponents ?? (red: 0x00, green: 0x7A, blue: 0xFF)
        self.init(tint: Colour(red: Int(components.red), green: Int(components.green), blue: Int(components.blue)))
    }

    /// The first of the tint lightened in steps of 1% that has `ratio` against the lightest dark
    /// background; white always has.
    private static func tintOnDark(of tint: Colour, reaching ratio: Double) -> Colour {
        for step in 0...100 {
            let candidate = tint.lightened(by: Double(step) / 100)
            if candidate.contrast(with: lightestDarkBackground) >= ratio { return candidate }
        }
        return Colour(red: 255, green: 255, blue: 255)
    }

    /// The first of the tint darkened in steps of 1% that has `ratio` against the darkest
    /// background; black always has.
    private static func shade(of tint: Colour, reaching ratio: Double) -> Colour {
        for step in 0...100 {
            let candidate = tint.darkened(by: Double(step) / 100)
            if candidate.contrast(with: darkestBackground) >= ratio { return candidate }
        }
        return Colour(red: 0, green: 0, blue: 0)
    }
}
