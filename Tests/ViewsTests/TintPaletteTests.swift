import Colour
import Testing

@testable import Views

@Suite struct TintPaletteTests {
    @Test func aDarkTintIsUsedAsItIs() {
        let brown = RGBColor(red: 0x6F, green: 0x4E, blue: 0x37)
        let palette = TintPalette(tint: brown)
        #expect(palette.text == brown)
        #expect(palette.ring == brown)
    }

    @Test func aLightTintGetsDarkerShadesThatReadAndStandOut() {
        let green = RGBColor(red: 0x34, green: 0xC7, blue: 0x59)
        let palette = TintPalette(tint: green)
        #expect(palette.tint == green)
        #expect(palette.text.description == "#207B37")
        #expect(palette.ring.description == "#299B45")
        #expect(palette.text.contrast(with: TintPalette.darkestBackground) >= 4.5)
        #expect(palette.ring.contrast(with: TintPalette.darkestBackground) >= 3)
        // One step (1%) lighter would not do: the shades are the lightest that pass.
        #expect(RGBColor(red: 0x21, green: 0x7D, blue: 0x38).contrast(with: TintPalette.darkestBackground) < 4.5)
    }

    @Test func whiteTextOnTheTextShadeReads() {
        let yellow = TintPalette(tint: RGBColor(red: 0xFF, green: 0xCC, blue: 0x00))
        #expect(yellow.text.contrast(with: RGBColor(red: 255, green: 255, blue: 255)) >= 4.5)
    }

    @Test func theThemeStylesheetCarriesTheShades() throws {
        let app = try demo("restaurant")
        #expect(
            String(decoding: ThemeStylesheet.css(for: app), as: UTF8.self)
                == ":root { --tint: #FF9500; --tint-text: #9C5B00; --tint-ring: light-dark(#C77400, #FF9500); }\n")
    }

    /// A focus ring stands out at 3:1 against every bar, page and selected cell it is drawn on,
    /// light and dark (WCAG 1.4.11), whatever the tint: orange, yellow, blue, dark green, black.
    @Test func theRingMeetsThreeToOneOnEveryBackgroundInBothAppearances() {
        let light = [0xFFFFFF, 0xF9F9FB, 0xF2F2F7, 0xECECF1]
        let dark = [0x3A3A3C, 0x242426, 0x1C1C1E, 0x000000]
        func colour(_ hex: Int) -> RGBColor {
            RGBColor(red: UInt8(hex >> 16), green: UInt8((hex >> 8) & 0xFF), blue: UInt8(hex & 0xFF))
        }
        for tint in [0xFF9500, 0xFFCC00, 0x007AFF, 0x1E7B3A, 0x000000, 0xFFFFFF] {
            let palette = TintPalette(tint: colour(tint))
            for background in light {
                #expect(
                    palette.ring.contrast(with: colour(background)) >= 3, "\(palette.ring) on \(colour(background))")
            }
            for background in dark {
                #expect(
                    palette.ringOnDark.contrast(with: colour(background)) >= 3,
                    "\(palette.ringOnDark) on \(colour(background))")
            }
        }
    }
}
