import Colour

/// Composes docs/glow.md's selected picture from a coverage mask, in premultiplied floating point.
struct GlowComposer {
    /// Gloss stops: location → white alpha. Two stops at 0.55 make the hard step.
    static let glossStops: [(location: Float, alpha: Float)] = [
        (0, 0.8), (0.55, 0.6), (0.55, 0), (0.7, 0.1), (1, 0.5),
    ]
    static let shadowOffsetInPoints = 1
    static let shadowBlurInPoints = 3.0

    let scale: IconScale
    /// docs/glow.md: σ = blur / 2, in device pixels.
    var shadowSigma: Double
    var shadowOffsetInPixels: Int

    init(scale: IconScale) {
        self.scale = scale
        self.shadowSigma = Self.shadowBlurInPoints / 2 * Double(scale.rawValue)
        self.shadowOffsetInPixels = Self.shadowOffsetInPoints * scale.rawValue
    }

    /// How far the shadow reaches past the icon's coverage: the blur each side, plus the offset below.
    var shadowMargin: BoxMargin {
        let reach = ShadowBlur(sigma: shadowSigma).reach
        let offset = max(0, shadowOffsetInPixels)
        return BoxMargin(left: reach, top: reach, right: reach, bottom: reach + offset)
    }

    /// The picture for a whole-image mask (as `renderCoverage` gives).
    func compose(_ mask: CoverageMask, tint: RGBColor) -> Raster {
        compose(
            mask, in: PixelBox(x: 0, y: 0, width: mask.width, height: mask.height), imageWidth: mask.width,
            imageHeight: mask.height, tint: tint)
    }

    /// The picture for a mask covering `box` of the image; the box must hold the shadow too (see
    /// `shadowMargin`), as nothing outside it is drawn.
    func compose(_ mask: CoverageMask, in box: PixelBox, imageWidth: Int, imageHeight: Int, tint: RGBColor) -> Raster {
        let width = box.width
        let height = box.height
        guard !box.isEmpty, mask.values.count == width * height else {
            return Raster(width: imageWidth, height: imageHeight)
        }
        var layer = [Float](repeating: 0, count: width * height * 4)
        var layerAlpha = [Float](repeating: 0, count: width * height)
        let (red, green, blue) = tint.unitChannels
        let gloss = GlossGradient(scale: scale)
        layer.withUnsafeMutableBufferPointer { pixels in
            layerAlpha.withUnsafeMutableBufferPointer { layerAlpha in
                mask.values.withUnsafeBufferPointer { coverageValues in
                    for y in 0..<height {
                        for x in 0..<width {
                            let index = y * width + x
                            let coverage = coverageValues[index]
                            guard coverage > 0 else { continue }
                            // Tint under the soft clip, then white gloss over it, clipped the same way.
                            let white = gloss.alpha(x: box.x + x, y: box.y + y) * coverage
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
            }
        }
        let blurred = ShadowBlur(sigma: shadowSigma).apply(to: layerAlpha, width: width, height: height)
        let offset = max(0, min(height, shadowOffsetInPixels))
        layer.withUnsafeMutableBufferPointer { pixels in
            blurred.withUnsafeBufferPointer { blurred in
                for y in offset..<height {
                    for x in 0..<width {
                        let shadow = blurred[(y - offset) * width + x]
                        guard shadow > 0 else { continue }
                        let index = (y * width + x) * 4
                        pixels[index + 3] += shadow * (1 - pixels[index + 3])
                    }
                }
            }
        }
        return Raster(width: imageWidth, height: imageHeight, storage: .dense(box, layer))
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
