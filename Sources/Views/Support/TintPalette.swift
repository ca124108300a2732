import Colour
import TabModel

/// The colours an app's tint gives the page, each contrast-checked (WCAG 2 relative luminance)
/// against the light backgrounds it is drawn on, so a light tint still passes: text and buttons
/// use a shade of the tint darkened until it reads, focus rings a shade that stands out.
public struct TintPalette: Sendable, Equatable {
    /// The darkest background the tint's colours sit on: the selected cell of the vertical bar
    /// (`.tab-bar-vertical .tab[aria-current]` in Public/css/tabstage.css); the page and the
    /// bars are lighter, so what reads here reads there.
    public static let darkestBackground = AppDescription.textBackground
    /// The lightest background of the dark appearance: its selected cell (`--current-cell`); its
    /// bars, pages and stage are darker.
    public static let lightestDarkBackground = RGBColor(red: 0x3A, green: 0x3A, blue: 0x3C)
    /// Text (and white text on a button of it) needs 4.5:1; a focus ring, as any part of a
    /// control, 3:1.
    public static let textContrast = AppDescription.textContrast
    public static let ringContrast = 3.0

    /// The tint as written.
    public var tint: RGBColor
    /// The tint, or the lightest shade of it that reads as text: links, the selected tab's
    /// title, button faces (with white text).
    public var text: RGBColor
    /// The tint, or the lightest shade of it that stands out as a focus ring.
    public var ring: RGBColor
    /// The ring of the dark appearance: the tint, or the darkest tint of it (mixed with white)
    /// that stands out at 3:1 against the dark bar, page and selected cell.
    public var ringOnDark: RGBColor

    public init(tint: RGBColor) {
        self.tint = tint
        text = Self.shade(of: tint, reaching: Self.textContrast)
        ring = Self.shade(of: tint, reaching: Self.ringContrast)
        ringOnDark = Self.tintOnDark(of: tint, reaching: Self.ringContrast)
    }

    /// The palette of an app; the system blue for a tint that is not `#RRGGBB` (the loader
    /// refuses those). Its `textTint`, when chosen, is the text colour (the loader checked that
    /// it reads).
    public init(app: AppDescription) {
        self.init(tint: app.tintColor ?? RGBColor(red: 0x00, green: 0x7A, blue: 0xFF))
        if let chosen = app.textTintColor { text = chosen }
    }

    /// The first of the tint lightened in steps of 1% that has `ratio` against the lightest dark
    /// background; white always has.
    private static func tintOnDark(of tint: RGBColor, reaching ratio: Double) -> RGBColor {
        for step in 0...100 {
            let candidate = tint.lightened(by: Double(step) / 100)
            if candidate.contrast(with: lightestDarkBackground) >= ratio { return candidate }
        }
        return .white
    }

    /// The first of the tint darkened in steps of 1% that has `ratio` against the darkest
    /// background; black always has.
    private static func shade(of tint: RGBColor, reaching ratio: Double) -> RGBColor {
        for step in 0...100 {
            let candidate = tint.darkened(by: Double(step) / 100)
            if candidate.contrast(with: darkestBackground) >= ratio { return candidate }
        }
        return .black
    }
}
