import CZlib
import Colour
import PathGeometry
import Testing

@testable import PNGCodec
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

    /// The branch-free conversion against `rounded()` (halves away from zero) on every byte's value,
    /// the halves between them and their neighbours, values outside 0...1 and NaN.
    @Test func unitsBecomeBytesAsRoundingSays() {
        var units: [Float] = [.nan, -.infinity, .infinity, -1, -0.0, 0, 1, 1.0001, 2, .leastNonzeroMagnitude]
        for step in 0...510 {
            let unit = Float(step) / 510
            units += [unit, unit.nextDown, unit.nextUp]
        }
        for unit in units {
            #expect(Raster.unitToByte(min(1, max(0, unit))) == UInt8((min(1, max(0, unit)) * 255).rounded()), "\(unit)")
            #expect(Raster.scaledToByte(unit * 255) == UInt8(min(255, max(0, (unit * 255).rounded()))), "\(unit)")
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

    /// The compact forms (gray + alpha, palette) and the box around the ink must decode to exactly the
    /// pixels of the plain RGBA file of the same picture.
    @Test func compactFilesDecodeToTheSamePixelsAsRGBA() throws {
        let shapes = [
            try Fixtures.iconPathData("house"), try Fixtures.iconPathData("magnifier"),
        ].map { (try? PathData(parsing: $0.data), FillRule(rawValue: $0.fillRule) ?? .nonZero) }
        let colors: [RGBColor] = [
            .black, .defaultTint, RGBColor(red: 128, green: 128, blue: 128), RGBColor(red: 1, green: 254, blue: 77),
            RGBColor(red: 255, green: 255, blue: 255),
        ]
        for (path, rule) in shapes {
            let path = try #require(path)
            for scale in IconScale.allCases {
                for state in IconState.allCases {
                    for color in colors {
                        let raster = renderIcon(
                            path, fillRule: rule, state: state, scale: scale, tint: color, color: color)
                        let compact: DecodedPNG
                        do {
                            compact = try DecodedPNG(encodePNG(raster))
                        } catch {
                            Issue.record("\(state) \(color) @\(scale.rawValue)x: \(error)")
                            continue
                        }
                        let plain = try DecodedPNG(
                            PNGEncoder.encode(rgba: raster.straightRGBA8(), width: raster.width, height: raster.height))
                        let dense = Raster(width: raster.width, height: raster.height, pixels: raster.pixels)
                        #expect(compact == plain, "\(state) \(color) @\(scale.rawValue)x")
                        #expect(try DecodedPNG(encodePNG(dense)) == plain, "\(state) \(color) @\(scale.rawValue)x")
                    }
                }
            }
        }
    }

    @Test func emptyAndEdgeTouchingPicturesEncode() throws {
        for data in ["M0 0 Z", "M-5 -5 H100 V100 H-5 Z", "M70 0 L90 30 L60 30 Z", "M0 70 L30 90 L30 60 Z"] {
            let path = try PathData(parsing: data)
            for state in IconState.allCases {
                let raster = renderIcon(path, fillRule: .nonZero, state: state, scale: .x1, color: .defaultTint)
                let decoded = try DecodedPNG(encodePNG(raster))
                let plain = try DecodedPNG(
                    PNGEncoder.encode(rgba: raster.straightRGBA8(), width: raster.width, height: raster.height))
                #expect(decoded == plain, "\(data) \(state)")
            }
        }
    }
}

struct SparseDeflateTests {
    /// Runs of every length around the 258-byte match limit, zeros and not, one- and two-byte pixels:
    /// zlib must inflate them to the same bytes and accept the checksum.
    @Test(arguments: [1, 2])
    func runsInflateToTheSameBytes(pixelSize: Int) throws {
        var seed: UInt32 = 12_345
        func next(_ bound: Int) -> Int {
            seed = seed &* 1_103_515_245 &+ 12_345
            return Int(seed >> 16) % bound
        }
        for _ in 0..<50 {
            var stream = SparseDeflate(capacity: 1024)
            var expected: [UInt8] = []
            for _ in 0..<next(20) {
                let pixel: (UInt8, UInt8) = next(3) == 0 ? (0, 0) : (UInt8(next(256)), UInt8(next(256)))
                let count = [1, 2, 3, 4, 129, 130, 131, 258, 259, 260, 600][next(11)]
                if next(4) == 0 {
                    stream.zeros(count)
                    expected += [UInt8](repeating: 0, count: count)
                }
                stream.run(of: pixel, size: pixelSize, count: count)
                for _ in 0..<count { expected += pixelSize == 1 ? [pixel.0] : [pixel.0, pixel.1] }
            }
            let compressed = stream.finish()
            var inflated = [UInt8](repeating: 0, count: expected.count + 1)
            var length = uLongf(inflated.count)
            let status = inflated.withUnsafeMutableBufferPointer { target in
                compressed.withUnsafeBufferPointer {
                    uncompress(target.baseAddress, &length, $0.baseAddress, uLong($0.count))
                }
            }
            #expect(status == Z_OK)
            #expect(Array(inflated.prefix(Int(length))) == expected)
        }
    }
}

struct RunDeflateTests {
    /// Runs of zeros and of pixels of every length around the 258-byte match limit, one- and two-byte
    /// pixels, starting with a lone zero or not: zlib must inflate them to the same bytes and accept
    /// the checksum.
    @Test(arguments: [1, 2])
    func runsInflateToTheSameBytes(pixelSize: Int) throws {
        var seed: UInt32 = 54_321
        func next(_ bound: Int) -> Int {
            seed = seed &* 1_103_515_245 &+ 12_345
            return Int(seed >> 16) % bound
        }
        let lengths = [1, 2, 3, 4, 5, 128, 129, 130, 131, 257, 258, 259, 260, 261, 600]
        for trial in 0..<200 {
            let gray = UInt8(next(256))
            var alphas: [[UInt8]] = []
            var zeros: [Int] = []
            for _ in 0..<next(12) {
                zeros.append(trial % 3 == 0 ? [0, 1][next(2)] : lengths[next(lengths.count)] * [0, 1][next(2)])
                let alpha = next(4) == 0 ? 0 : next(4) == 0 ? gray : UInt8(next(256))
                alphas.append([UInt8](repeating: alpha, count: lengths[next(lengths.count)]))
                if next(3) == 0 { alphas[alphas.count - 1] += (0..<next(5)).map { _ in UInt8(next(256)) } }
            }
            var expected: [UInt8] = []
            for (count, run) in zip(zeros, alphas) {
                expected += [UInt8](repeating: 0, count: count)
                for alpha in run { expected += pixelSize == 1 ? [alpha] : alpha == 0 ? [0, 0] : [gray, alpha] }
            }
            let bound = RunDeflate.bound(bytes: expected.count, runs: expected.count + 1)
            var stream = RunDeflate(capacity: bound, pixelSize: pixelSize, gray: gray)
            for (count, run) in zip(zeros, alphas) {
                stream.appendZeros(count)
                // The deltas whose running sums are these alphas (within far less than half a step).
                let units = run.map { Float($0) / 255 }
                let deltas = units.indices.map { units[$0] - ($0 > 0 ? units[$0 - 1] : 0) }
                let rule: FillRule = trial % 2 == 0 ? .nonZero : .evenOdd
                let row = CoverageDeltas(width: deltas.count, height: 1, fillRule: rule, deltas: deltas + [0])
                let largest = stream.append(row: 0, of: row)
                #expect(largest == run.max() ?? 0)
            }
            let compressed = stream.finish()
            let length = compressed.count
            #expect(length <= bound)
            var inflated = [UInt8](repeating: 0, count: expected.count + 1)
            var inflatedLength = uLongf(inflated.count)
            let status = inflated.withUnsafeMutableBufferPointer { target in
                compressed.withUnsafeBufferPointer {
                    uncompress(target.baseAddress, &inflatedLength, $0.baseAddress, uLong(length))
                }
            }
            #expect(status == Z_OK, "trial \(trial)")
            #expect(Array(inflated.prefix(Int(inflatedLength))) == expected, "trial \(trial)")
        }
    }
}
