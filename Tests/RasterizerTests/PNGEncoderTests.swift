import Testing

@testable import Rasterizer

struct PNGEncoderTests {
    @Test func roundTripsStraightAlphaPixels() throws {
        let rgba: [UInt8] = [
            255, 0, 0, 255, 0, 255, 0, 128, 0, 0, 0, 0, 10, 20, 30, 40, 1, 2, 3, 255, 200, 100, 50, 25,
        ]
        for level: Int32 in [0, 1, 6, 9] {
            let decoded = try DecodedPNG(PNGEncoder.encode(rgba: rgba, width: 3, height: 2, level: level))
            #expect(decoded.width == 3 && decoded.height == 2 && decoded.rgba == rgba)
        }
    }

    @Test func unpremultipliesOnceWhenWriting() throws {
        let raster = Raster(width: 2, height: 1, pixels: [0.5, 0.25, 0, 0.5, 0.3, 0.3, 0.3, 0])
        let decoded = try DecodedPNG(encodePNG(raster))
        #expect(decoded.rgba == [255, 128, 0, 128, 0, 0, 0, 0])
    }

    @Test func theSameIconGivesTheSameBytes() throws {
        let path = try PathData(parsing: "M12 3 L21 20 H3 Z")
        let first = encodePNG(renderIcon(path, fillRule: .nonZero, state: .selected, scale: .x2))
        let second = encodePNG(renderIcon(path, fillRule: .nonZero, state: .selected, scale: .x2))
        #expect(first == second)
        let other = encodePNG(renderIcon(path, fillRule: .nonZero, state: .selected, scale: .x2, tint: .black))
        #expect(first != other)
        #expect(Array(first.prefix(8)) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
    }

    @Test func colorsParseOnlyInTheTwoHexForms() {
        #expect(RGBColor(hex: "#FF9500") == .defaultTint)
        #expect(RGBColor(hex: "ff9500") == .defaultTint)
        #expect(RGBColor(hex: "#ff95") == nil)
        #expect(RGBColor(hex: "#GG9500") == nil)
        #expect(RGBColor(hex: "+12345") == nil)
        #expect(RGBColor(hex: "#-12345") == nil)
        #expect(RGBColor(hex: "#0a0b0c")?.description == "#0A0B0C")
    }
}
