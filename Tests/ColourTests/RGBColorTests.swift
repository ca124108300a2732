import Colour
import Testing

@Suite struct RGBColorTests {
    @Test func colorsParseOnlyInTheTwoHexForms() {
        let orange = RGBColor(red: 0xFF, green: 0x95, blue: 0x00)
        #expect(RGBColor(hex: "#FF9500") == orange)
        #expect(RGBColor(hex: "ff9500") == orange)
        #expect(RGBColor(hex: "#ff95") == nil)
        #expect(RGBColor(hex: "#GG9500") == nil)
        #expect(RGBColor(hex: "+12345") == nil)
        #expect(RGBColor(hex: "#-12345") == nil)
        #expect(RGBColor(hex: "#0a0b0c")?.description == "#0A0B0C")
    }

    @Test func blackOnWhiteIsTheLargestContrast() {
        #expect(RGBColor.black.contrast(with: .white) == 21)
        #expect(RGBColor.white.contrast(with: .black) == 21)
        #expect(RGBColor.white.lightened(by: 0.5) == .white)
        #expect(RGBColor.white.darkened(by: 1) == .black)
    }
}
