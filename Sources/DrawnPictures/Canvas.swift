import Colour
import IconCatalog
import PathGeometry
import Rasterizer
import TabModel

/// An opaque picture in points at `scale` pixels per point: rounded rectangles (their edges
/// anti-aliased by area) and the rasterizer's icons.
struct Canvas {
    let scale: Int
    let pixelWidth: Int
    let pixelHeight: Int
    /// Straight RGB, 0 to 1, row-major.
    private var rgb: [Float]

    init(width: Int, height: Int, scale: Int, background: RGBColor) {
        self.scale = scale
        pixelWidth = width * scale
        pixelHeight = height * scale
        rgb = [Float](repeating: 0, count: pixelWidth * pixelHeight * 3)
        for index in 0..<(pixelWidth * pixelHeight) { blend(index, background, 1) }
    }

    private mutating func blend(_ pixel: Int, _ color: RGBColor, _ coverage: Float) {
        let channels = [color.red, color.green, color.blue]
        for channel in 0..<3 {
            let value = Float(channels[channel]) / 255
            rgb[pixel * 3 + channel] += (value - rgb[pixel * 3 + channel]) * coverage
        }
    }

    /// A rectangle in points with corners of `radius`, each pixel covered by the share of its
    /// 4×4 samples inside.
    mutating func roundedRect(x: Int, y: Int, width: Int, height: Int, radius: Int, _ color: RGBColor) {
        let s = Double(scale)
        let (left, top, right, bottom) = (Double(x) * s, Double(y) * s, Double(x + width) * s, Double(y + height) * s)
        let r = min(Double(radius) * s, (right - left) / 2, (bottom - top) / 2)
        for row in max(0, Int(top))..<min(pixelHeight, Int(bottom.rounded(.up))) {
            for column in max(0, Int(left))..<min(pixelWidth, Int(right.rounded(.up))) {
                var inside = 0
                for sample in 0..<16 {
                    let px = Double(column) + (Double(sample % 4) + 0.5) / 4
                    let py = Double(row) + (Double(sample / 4) + 0.5) / 4
                    guard px >= left, px < right, py >= top, py < bottom else { continue }
                    let cx = min(max(px, left + r), right - r)
                    let cy = min(max(py, top + r), bottom - r)
                    if (px - cx) * (px - cx) + (py - cy) * (py - cy) <= r * r { inside += 1 }
                }
                if inside > 0 { blend(row * pixelWidth + column, color, Float(inside) / 16) }
            }
        }
    }

    /// A built-in icon, its 24-point square's top left at (`x`, `y`), filled with `color`.
    mutating func icon(_ icon: BuiltInIcon, x: Int, y: Int, color: RGBColor) {
        guard let path = try? PathData(parsing: icon.art), let iconScale = IconScale(rawValue: scale) else { return }
        let mask = renderCoverage(path, fillRule: PathGeometry.FillRule(icon.artFillRule), scale: iconScale)
        // The cell centres the icon across and lifts it from the middle (IconCell).
        let cell = IconCell.sizeInPoints
        let originX = (Double(x) - (cell - IconCell.iconSizeInPoints) / 2) * Double(scale)
        let originY =
            (Double(y) - (cell - IconCell.iconSizeInPoints) / 2 + IconCell.upwardShiftInPoints) * Double(scale)
        for row in 0..<mask.height {
            for column in 0..<mask.width {
                let coverage = mask[column, row]
                let (px, py) = (Int(originX) + column, Int(originY) + row)
                guard coverage > 0, px >= 0, py >= 0, px < pixelWidth, py < pixelHeight else { continue }
                blend(py * pixelWidth + px, color, min(coverage, 1))
            }
        }
    }

    /// Premultiplied (opaque) RGBA for the encoder.
    var raster: Raster {
        var pixels = [Float](repeating: 1, count: pixelWidth * pixelHeight * 4)
        for index in 0..<(pixelWidth * pixelHeight) {
            for channel in 0..<3 { pixels[index * 4 + channel] = rgb[index * 3 + channel] }
        }
        return Raster(width: pixelWidth, height: pixelHeight, pixels: pixels)
    }
}
