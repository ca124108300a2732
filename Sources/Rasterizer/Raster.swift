/// An RGBA image in premultiplied floating point (0...1), kept unrounded until it is encoded.
public struct Raster: Equatable, Sendable {
    public let width: Int
    public let height: Int
    /// Row-major premultiplied R, G, B, A: `width · height · 4` values.
    public var pixels: [Float]

    public init(width: Int, height: Int, pixels: [Float]) {
        self.width = width
        self.height = height
        self.pixels = pixels
    }

    public init(width: Int, height: Int) {
        self.init(width: width, height: height, pixels: [Float](repeating: 0, count: width * height * 4))
    }

    /// Straight-alpha 8-bit RGBA, the only place where values are rounded.
    public func straightRGBA8() -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: width * height * 4)
        bytes.withUnsafeMutableBufferPointer { output in
            pixels.withUnsafeBufferPointer { input in
                var index = 0
                while index < input.count {
                    let alpha = min(1, max(0, input[index + 3]))
                    let alpha8 = (alpha * 255).rounded()
                    if alpha8 > 0 {
                        let unpremultiply = 255 / alpha
                        output[index] = UInt8(min(255, max(0, (input[index] * unpremultiply).rounded())))
                        output[index + 1] = UInt8(min(255, max(0, (input[index + 1] * unpremultiply).rounded())))
                        output[index + 2] = UInt8(min(255, max(0, (input[index + 2] * unpremultiply).rounded())))
                        output[index + 3] = UInt8(alpha8)
                    }
                    index += 4
                }
            }
        }
        return bytes
    }
}
