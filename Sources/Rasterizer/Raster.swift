import Colour

/// A rectangle of device pixels: columns `x..<x + width`, rows `y..<y + height`.
struct PixelBox: Equatable, Sendable {
    var x: Int
    var y: Int
    var width: Int
    var height: Int

    static let empty = PixelBox(x: 0, y: 0, width: 0, height: 0)

    var isEmpty: Bool { width <= 0 || height <= 0 }
    var area: Int { isEmpty ? 0 : width * height }
}

/// An RGBA image in premultiplied floating point (0...1), kept unrounded until it is encoded.
///
/// Only the pixels inside `box` are stored; everything outside it is transparent. A flat fill keeps
/// just its colour and its coverage, so the encoder can write it as one byte a pixel.
public struct Raster: Sendable {
    public let width: Int
    public let height: Int

    enum Storage: Sendable {
        /// Premultiplied R, G, B, A for each pixel of the box, row-major.
        case dense(PixelBox, [Float])
        /// Pixel = `color · coverage` (premultiplied), the coverage of each pixel of the box kept as
        /// the accumulator's deltas (`CoverageDeltas`, box-sized).
        case flat(PixelBox, RGBColor, CoverageDeltas)
    }

    var storage: Storage

    init(width: Int, height: Int, storage: Storage) {
        self.width = width
        self.height = height
        self.storage = storage
    }

    public init(width: Int, height: Int, pixels: [Float]) {
        self.init(
            width: width, height: height, storage: .dense(PixelBox(x: 0, y: 0, width: width, height: height), pixels))
    }

    public init(width: Int, height: Int) {
        self.init(width: width, height: height, storage: .dense(.empty, []))
    }

    /// Row-major premultiplied R, G, B, A of the whole image: `width · height · 4` values.
    public var pixels: [Float] {
        get {
            var result = [Float](repeating: 0, count: width * height * 4)
            switch storage {
            case .dense(let box, let values):
                for row in 0..<max(0, box.height) {
                    for column in 0..<box.width {
                        let target = ((box.y + row) * width + box.x + column) * 4
                        let source = (row * box.width + column) * 4
                        for channel in 0..<4 { result[target + channel] = values[source + channel] }
                    }
                }
            case .flat(let box, let color, let deltas):
                let alpha = deltas.coverage()
                guard alpha.count == box.area else { return result }
                let (red, green, blue) = color.unitChannels
                for row in 0..<max(0, box.height) {
                    for column in 0..<box.width {
                        let coverage = alpha[row * box.width + column]
                        guard coverage > 0 else { continue }
                        let target = ((box.y + row) * width + box.x + column) * 4
                        result[target] = red * coverage
                        result[target + 1] = green * coverage
                        result[target + 2] = blue * coverage
                        result[target + 3] = coverage
                    }
                }
            }
            return result
        }
        set {
            storage = .dense(PixelBox(x: 0, y: 0, width: width, height: height), newValue)
        }
    }

    /// Straight-alpha 8-bit RGBA, the only place where values are rounded.
    public func straightRGBA8() -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: width * height * 4)
        let dense: (PixelBox, [Float])
        switch storage {
        case .dense(let box, let values): dense = (box, values)
        case .flat: dense = (PixelBox(x: 0, y: 0, width: width, height: height), pixels)
        }
        let (box, values) = dense
        let width = self.width
        Self.writeStraight(values, box: box, into: &bytes) { row in ((box.y + row) * width + box.x) * 4 }
        return bytes
    }

    /// Writes `values`, the premultiplied float pixels of `box` row by row, into `output` as
    /// straight 8-bit RGBA, each row at the byte offset `rowStart` gives. The pointers on both
    /// arrays live only inside this call.
    static func writeStraight(
        _ values: [Float], box: PixelBox, into output: inout [UInt8], rowStart: (Int) -> Int
    ) {
        guard values.count >= box.area * 4 else { return }
        output.withUnsafeMutableBufferPointer { output in
            values.withUnsafeBufferPointer { input in
                for row in 0..<max(0, box.height) {
                    straightRow(input, from: row * box.width * 4, into: output, at: rowStart(row), pixels: box.width)
                }
            }
        }
    }

    /// Converts `pixels` premultiplied float pixels to straight 8-bit RGBA.
    @inline(__always)
    private static func straightRow(
        _ input: UnsafeBufferPointer<Float>, from source: Int, into output: UnsafeMutableBufferPointer<UInt8>,
        at target: Int, pixels: Int
    ) {
        for pixel in 0..<pixels {
            let index = source + pixel * 4
            let out = target + pixel * 4
            let alpha = min(1, max(0, input[index + 3]))
            let alpha8 = unitToByte(alpha)
            if alpha8 > 0 {
                let unpremultiply = 255 / alpha
                output[out] = scaledToByte(input[index] * unpremultiply)
                output[out + 1] = scaledToByte(input[index + 1] * unpremultiply)
                output[out + 2] = scaledToByte(input[index + 2] * unpremultiply)
                output[out + 3] = alpha8
            } else {
                output[out] = 0
                output[out + 1] = 0
                output[out + 2] = 0
                output[out + 3] = 0
            }
        }
    }

    /// `round(unit · 255)` for unit in 0...1, halves away from zero (as `rounded()`), without a libm call.
    @inline(__always)
    static func unitToByte(_ unit: Float) -> UInt8 { scaledToByte(unit * 255) }

    /// `min(255, max(0, value.rounded()))`, halves away from zero; NaN gives 0. Float arithmetic
    /// only, no libm call, branch or checked conversion, so loops of it vectorise: adding 2²³ rounds
    /// a value in 0...255 to an integer (to nearest), which gives the floor and so the rounding, and
    /// the integer is then the low byte of the sum's bit pattern.
    @inline(__always)
    static func scaledToByte(_ value: Float) -> UInt8 {
        let magic: Float = 8_388_608  // 2²³: from here on a Float's ulp is 1
        let clamped = min(255, max(0, value))
        let nearest = (clamped + magic) - magic
        let floor = nearest > clamped ? nearest - 1 : nearest
        let rounded = clamped - floor >= 0.5 ? floor + 1 : floor
        return UInt8(truncatingIfNeeded: (rounded + magic).bitPattern)
    }
}

extension Raster: Equatable {
    public static func == (lhs: Raster, rhs: Raster) -> Bool {
        lhs.width == rhs.width && lhs.height == rhs.height && lhs.pixels == rhs.pixels
    }
}

extension RGBColor {
    /// The channels in 0...1.
    var unitChannels: (Float, Float, Float) {
        (Float(red) / 255, Float(green) / 255, Float(blue) / 255)
    }
}
