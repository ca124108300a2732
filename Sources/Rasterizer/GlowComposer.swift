/// Composes GLOW.md's selected picture from a coverage mask, in premultiplied floating point.
struct GlowComposer {
    /// Gloss stops: location → white alpha. Two stops at 0.55 make the hard step.
    static let glossStops: [(location: Float, alpha: Float)] = [
        (0, 0.8), (0.55, 0.6), (0.55, 0), (0.7, 0.1), (1, 0.5),
    ]
    static let shadowOffsetInPoints = 1
    static let shadowBlurInPoints = 3.0

    let scale: IconScale
    /// GLOW.md: σ = blur / 2, in device pixels.
    var shadowSigma: Double
    var shadowOffsetInPixels: Int

    init(scale: IconScale) {
        self.scale = scale
        self.shadowSigma = Self.shadowBlurInPoints / 2 * Double(scale.rawValue)
        self.shadowOffsetInPixels = Self.shadowOffsetInPoints * scale.rawValue
    }

    static func flatFill(_ mask: CoverageMask, color: RGBColor) -> Raster {
        var raster = Raster(width: mask.width, height: mask.height)
        let (red, green, blue) = channels(color)
        raster.pixels.withUnsafeMutableBufferPointer { pixels in
            for (index, coverage) in mask.values.enumerated() where coverage > 0 {
                pixels[index * 4] = red * coverage
                pixels[index * 4 + 1] = green * coverage
                pixels[index * 4 + 2] = blue * coverage
                pixels[index * 4 + 3] = coverage
            }
        }
        return raster
    }

    func compose(_ mask: CoverageMask, tint: RGBColor) -> Raster {
        let width = mask.width
        let height = mask.height
        var layer = Raster(width: width, height: height)
        var layerAlpha = [Float](repeating: 0, count: width * height)
        let (red, green, blue) = Self.channels(tint)
        let gloss = GlossGradient(scale: scale)
        layer.pixels.withUnsafeMutableBufferPointer { pixels in
            for y in 0..<height {
                for x in 0..<width {
                    let index = y * width + x
                    let coverage = mask.values[index]
                    guard coverage > 0 else { continue }
                    // Tint under the soft clip, then white gloss over it, clipped the same way.
                    let white = gloss.alpha(x: x, y: y) * coverage
                    let keep = 1 - white
                    let alpha = white + coverage * keep
                    pixels[index * 4] = white + red * coverage * keep
                    pixels[index * 4 + 1] = white + green * coverage * keep
                    pixels[index * 4 + 2] = white + blue * coverage * keep
                    pixels[index * 4 + 3] = alpha
                    layerAlpha[index] = alpha
                }
            }
        }
        let blurred = ShadowBlur(sigma: shadowSigma).apply(to: layerAlpha, width: width, height: height)
        let offset = max(0, min(height, shadowOffsetInPixels))
        layer.pixels.withUnsafeMutableBufferPointer { pixels in
            for y in offset..<height {
                for x in 0..<width {
                    let shadow = blurred[(y - offset) * width + x]
                    guard shadow > 0 else { continue }
                    let index = (y * width + x) * 4
                    pixels[index + 3] += shadow * (1 - pixels[index + 3])
                }
            }
        }
        return layer
    }

    private static func channels(_ color: RGBColor) -> (Float, Float, Float) {
        (Float(color.red) / 255, Float(color.green) / 255, Float(color.blue) / 255)
    }
}

/// The white gloss: a linear gradient from (midX − h/4, top) to (midX, bottom) of the icon box,
/// evaluated at pixel centres; nothing outside [0, 1].
struct GlossGradient {
    private let originX: Double
    private let originY: Double
    private let directionX: Double
    private let directionY: Double
    private let pixelSize: Double

    init(scale: IconScale) {
        let box = IconCell.iconSizeInPoints
        let left = IconCell.boxLeft
        let top = IconCell.boxTop
        originX = left + box / 2 - box / 4
        originY = top
        let endX = left + box / 2
        let endY = top + box
        let lengthSquared = (endX - originX) * (endX - originX) + (endY - originY) * (endY - originY)
        directionX = (endX - originX) / lengthSquared
        directionY = (endY - originY) / lengthSquared
        pixelSize = 1 / Double(scale.rawValue)
    }

    func alpha(x: Int, y: Int) -> Float {
        let pointX = (Double(x) + 0.5) * pixelSize
        let pointY = (Double(y) + 0.5) * pixelSize
        let t = Float((pointX - originX) * directionX + (pointY - originY) * directionY)
        return Self.alpha(at: t)
    }

    static func alpha(at t: Float) -> Float {
        guard t >= 0, t <= 1 else { return 0 }
        let stops = GlowComposer.glossStops
        var index = 1
        // The first stop at or past t ends the interval; a hard step picks the later colour at 0.55.
        while index < stops.count - 1 && stops[index].location <= t { index += 1 }
        let lower = stops[index - 1]
        let upper = stops[index]
        let span = upper.location - lower.location
        guard span > 0 else { return upper.alpha }
        return lower.alpha + (upper.alpha - lower.alpha) * (t - lower.location) / span
    }
}
