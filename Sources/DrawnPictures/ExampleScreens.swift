import Colour
import IconCatalog
import PathGeometry
import Rasterizer
import TabModel

/// The screens of `examples/stride.json`, a fitness app made of screen pages: drawn here, with the
/// rasterizer's icons and the PNG encoder, so that the example ships no picture from elsewhere.
/// Text is drawn as grey bars, as wireframes do. `scripts/example-screens` writes them to
/// `examples/screens/` (`draw-pictures screens`), and a test draws them again and compares the bytes.
public enum ExampleScreens {
    /// Every screen: its file name under `examples/screens/`, and its PNG.
    public static func all() -> [(name: String, png: [UInt8])] {
        [
            ("today@2x.png", today(dark: false)), ("today-dark@2x.png", today(dark: true)),
            ("workout@2x.png", workout()), ("plans@2x.png", plans()), ("progress@2x.png", progress()),
        ].map { ($0.0, encodePNG($0.1.raster)) }
    }

    /// The size of every screen, in points; drawn at 2x.
    static let width = 390
    static let height = 720
    static let tint = RGBColor(red: 0xFF, green: 0x6B, blue: 0x35)

    struct Palette {
        var background: RGBColor
        var card: RGBColor
        var text: RGBColor
        var faint: RGBColor

        static let light = Palette(
            background: RGBColor(red: 0xF2, green: 0xF2, blue: 0xF7),
            card: RGBColor(red: 0xFF, green: 0xFF, blue: 0xFF),
            text: RGBColor(red: 0x3A, green: 0x3A, blue: 0x3C), faint: RGBColor(red: 0xD1, green: 0xD1, blue: 0xD6))
        static let dark = Palette(
            background: RGBColor(red: 0x00, green: 0x00, blue: 0x00),
            card: RGBColor(red: 0x1C, green: 0x1C, blue: 0x1E),
            text: RGBColor(red: 0xE5, green: 0xE5, blue: 0xEA), faint: RGBColor(red: 0x48, green: 0x48, blue: 0x4A))
    }

    static let white = RGBColor(red: 0xFF, green: 0xFF, blue: 0xFF)

    /// Today: a hero card, Start workout (a hotspot pushes the workout), three figures, water
    /// with its + (a hotspot counts a glass), and a row to the plans (a hotspot selects the tab).
    static func today(dark: Bool) -> Canvas {
        let colors = dark ? Palette.dark : Palette.light
        var canvas = Canvas(width: width, height: height, scale: 2, background: colors.background)
        canvas.roundedRect(x: 16, y: 18, width: 170, height: 22, radius: 6, colors.text)
        canvas.roundedRect(x: 16, y: 56, width: 358, height: 180, radius: 18, tint)
        canvas.icon(.flame, x: 36, y: 76, color: white)
        canvas.roundedRect(x: 36, y: 160, width: 210, height: 16, radius: 5, white)
        canvas.roundedRect(x: 36, y: 188, width: 140, height: 12, radius: 4, white.mixed(with: tint, 0.35))
        canvas.roundedRect(x: 16, y: 256, width: 358, height: 52, radius: 14, colors.text)
        canvas.icon(.play, x: 36, y: 270, color: colors.background)
        canvas.roundedRect(x: 72, y: 276, width: 150, height: 12, radius: 4, colors.background)
        for (index, icon) in [BuiltInIcon.heart, .bolt, .clock].enumerated() {
            let x = 16 + index * 124
            canvas.roundedRect(x: x, y: 328, width: 110, height: 96, radius: 16, colors.card)
            canvas.icon(icon, x: x + 14, y: 342, color: tint)
            canvas.roundedRect(x: x + 14, y: 378, width: 56, height: 14, radius: 4, colors.text)
            canvas.roundedRect(x: x + 14, y: 400, width: 80, height: 10, radius: 4, colors.faint)
        }
        canvas.roundedRect(x: 16, y: 444, width: 358, height: 84, radius: 16, colors.card)
        canvas.icon(.leaf, x: 32, y: 474, color: tint)
        canvas.roundedRect(x: 70, y: 468, width: 120, height: 14, radius: 4, colors.text)
        canvas.roundedRect(x: 70, y: 492, width: 170, height: 10, radius: 4, colors.faint)
        canvas.roundedRect(x: 314, y: 464, width: 44, height: 44, radius: 22, tint)
        canvas.roundedRect(x: 326, y: 484, width: 20, height: 4, radius: 2, white)
        canvas.roundedRect(x: 334, y: 476, width: 4, height: 20, radius: 2, white)
        canvas.roundedRect(x: 16, y: 548, width: 358, height: 60, radius: 16, colors.card)
        canvas.icon(.calendar, x: 32, y: 566, color: tint)
        canvas.roundedRect(x: 70, y: 572, width: 140, height: 14, radius: 4, colors.text)
        canvas.roundedRect(x: 346, y: 570, width: 10, height: 18, radius: 3, colors.faint)
        return canvas
    }

    /// The workout a hotspot of Today pushes: a ring, and Finish (a hotspot goes back).
    static func workout() -> Canvas {
        let colors = Palette.light
        var canvas = Canvas(width: width, height: height, scale: 2, background: colors.background)
        canvas.roundedRect(x: 75, y: 60, width: 240, height: 240, radius: 120, tint)
        canvas.roundedRect(x: 95, y: 80, width: 200, height: 200, radius: 100, colors.background)
        canvas.icon(.play, x: 183, y: 168, color: tint)
        canvas.roundedRect(x: 120, y: 330, width: 150, height: 26, radius: 8, colors.text)
        canvas.roundedRect(x: 95, y: 370, width: 200, height: 12, radius: 4, colors.faint)
        for row in 0..<3 {
            let y = 412 + row * 56
            canvas.roundedRect(x: 16, y: y, width: 358, height: 44, radius: 12, colors.card)
            canvas.roundedRect(x: 32, y: y + 16, width: 120 + row * 30, height: 12, radius: 4, colors.text)
        }
        canvas.roundedRect(x: 16, y: 620, width: 358, height: 52, radius: 14, tint)
        canvas.roundedRect(x: 145, y: 640, width: 100, height: 12, radius: 4, white)
        return canvas
    }

    /// Plans: four plan rows, and the account button at the top (a hotspot selects the account
    /// tab, which needs a log-in).
    static func plans() -> Canvas {
        let colors = Palette.light
        var canvas = Canvas(width: width, height: height, scale: 2, background: colors.background)
        canvas.roundedRect(x: 16, y: 18, width: 120, height: 22, radius: 6, colors.text)
        canvas.roundedRect(x: 330, y: 8, width: 44, height: 44, radius: 22, colors.card)
        canvas.icon(.person, x: 340, y: 18, color: tint)
        for (index, icon) in [BuiltInIcon.dumbbell, .flame, .bolt, .leaf].enumerated() {
            let y = 64 + index * 92
            canvas.roundedRect(x: 16, y: y, width: 358, height: 78, radius: 16, colors.card)
            canvas.roundedRect(x: 30, y: y + 17, width: 44, height: 44, radius: 12, tint.mixed(with: white, 0.8))
            canvas.icon(icon, x: 40, y: y + 27, color: tint)
            canvas.roundedRect(x: 90, y: y + 22, width: 130 + index * 12, height: 14, radius: 4, colors.text)
            canvas.roundedRect(x: 90, y: y + 46, width: 190, height: 10, radius: 4, colors.faint)
        }
        return canvas
    }

    /// Progress: a week of bars.
    static func progress() -> Canvas {
        let colors = Palette.light
        var canvas = Canvas(width: width, height: height, scale: 2, background: colors.background)
        canvas.roundedRect(x: 16, y: 18, width: 150, height: 22, radius: 6, colors.text)
        canvas.roundedRect(x: 16, y: 56, width: 358, height: 260, radius: 18, colors.card)
        for (day, value) in [0.45, 0.7, 0.3, 0.9, 0.6, 0.8, 0.5].enumerated() {
            let barHeight = Int(180 * value)
            canvas.roundedRect(
                x: 40 + day * 46, y: 276 - barHeight, width: 26, height: barHeight, radius: 8,
                day == 3 ? tint : tint.mixed(with: white, 0.55))
            canvas.roundedRect(x: 44 + day * 46, y: 290, width: 18, height: 8, radius: 3, colors.faint)
        }
        canvas.icon(.chart, x: 32, y: 340, color: tint)
        canvas.roundedRect(x: 68, y: 346, width: 200, height: 14, radius: 4, colors.text)
        return canvas
    }
}

extension RGBColor {
    /// This colour moved `amount` (0 to 1) of the way to `other`.
    func mixed(with other: RGBColor, _ amount: Double) -> RGBColor {
        func channel(_ a: UInt8, _ b: UInt8) -> UInt8 {
            UInt8((Double(a) * (1 - amount) + Double(b) * amount).rounded())
        }
        return RGBColor(
            red: channel(red, other.red), green: channel(green, other.green), blue: channel(blue, other.blue))
    }
}
