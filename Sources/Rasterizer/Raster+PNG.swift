import Colour
import PNGCodec
import PathGeometry

extension PNGEncoder {
    /// The PNG bytes of `raster`: a flat fill as one colour at the alpha of its coverage, any other
    /// raster as RGBA of its box's rows, so the same raster always gives the same bytes.
    public static func encode(_ raster: Raster, compressionLevel: Int32 = defaultCompressionLevel) -> [UInt8] {
        switch raster.storage {
        case .flat(let box, let color, let deltas):
            return encodeFlat(width: raster.width, height: raster.height, box: box, color: color, coverage: deltas)
        case .dense(let box, let values):
            return encodeDense(
                width: raster.width, height: raster.height, box: box, values: values, level: compressionLevel)
                ?? encode(
                    rgba: raster.straightRGBA8(), width: raster.width, height: raster.height, level: compressionLevel)
        }
    }

    /// One colour at the coverage of each pixel, filter None, run-coded by `RunDeflate` from the
    /// coverage's deltas (a row's runs are where its deltas are zero): gray + alpha
    /// when the colour is a gray (no palette to send), else a palette indexed by alpha (entry i is
    /// the colour at alpha i, one byte a pixel).
    static func encodeFlat(width: Int, height: Int, box: PixelBox, color: RGBColor, coverage: CoverageDeltas)
        -> [UInt8]
    {
        let fits =
            coverage.width == box.width && coverage.height == box.height
            && coverage.deltas.count == coverage.stride * box.height
        let box = box.isEmpty || !fits ? PixelBox.empty : box
        let area = box.area
        let isGray = color.red == color.green && color.green == color.blue
        let pixelSize = isGray ? 2 : 1
        let rowBytes = width * pixelSize + 1
        let bound = RunDeflate.bound(bytes: rowBytes * height, runs: area + 2 * height + 4)
        var stream = RunDeflate(capacity: bound, pixelSize: pixelSize, gray: color.red)
        // Filter bytes (None) and the transparent pixels around the box are all zero.
        stream.appendZeros(rowBytes * box.y)
        var largestAlpha: UInt8 = 0
        for row in 0..<box.height {
            stream.appendZeros(1 + box.x * pixelSize)
            largestAlpha = max(largestAlpha, stream.append(row: row, of: coverage))
            stream.appendZeros((width - box.x - box.width) * pixelSize)
        }
        stream.appendZeros(rowBytes * (height - box.y - box.height))
        return oneColourPNG(
            width: width, height: height, red: color.red, green: color.green, blue: color.blue,
            entries: isGray ? 0 : Int(largestAlpha) + 1, idat: stream.finish())
    }

    /// RGBA: the box's rows, straight alpha, as the band of `encode(rgbaBand:…)`. Nil when zlib refuses.
    static func encodeDense(width: Int, height: Int, box: PixelBox, values: [Float], level: Int32) -> [UInt8]? {
        let box = box.isEmpty || values.count != box.area * 4 ? PixelBox.empty : box
        let rowBytes = width * 4 + 1
        var rows = [UInt8](repeating: 0, count: box.isEmpty ? 0 : rowBytes * box.height)
        Raster.writeStraight(values, box: box, into: &rows) { row in row * rowBytes + 1 + box.x * 4 }
        return encode(
            rgbaBand: rows, top: box.y, columns: box.x..<box.x + box.width, width: width, height: height, level: level)
    }
}

extension RunDeflate {
    /// One pixel for each column of `row` of `coverage`: the coverage of the running sum under its
    /// fill rule, rounded to its alpha byte (zero bytes for alpha 0); returns the largest alpha. The
    /// sum changes only where a delta is not zero, so the row comes as runs
    /// (`CoverageDeltas.forEachRun`) and each run is rounded once; the sums are the ones a pass over
    /// every pixel adds up. Neighbouring runs that round to the same alpha join one run, so the
    /// stream is the one the alpha bytes would give.
    mutating func append(row: Int, of coverage: CoverageDeltas) -> UInt8 {
        precondition(coverage.width <= Self.widestRow)
        let fillRule = coverage.fillRule
        var largest: UInt8 = 0
        coverage.forEachRun(inRow: row) { winding, length in
            let alpha = Self.alpha(winding, fillRule)
            largest = max(largest, alpha)
            append(pixels: length, alpha: alpha)
        }
        endRow()
        return largest
    }

    @inline(__always)
    private static func alpha(_ winding: Float, _ fillRule: FillRule) -> UInt8 {
        Raster.unitToByte(min(1, max(0, CoverageDeltas.coverage(ofWinding: winding, fillRule: fillRule))))
    }
}

/// The PNG bytes of a raster (see `PNGEncoder.encode(_:compressionLevel:)`).
public func encodePNG(_ raster: Raster, level: Int32 = PNGEncoder.defaultCompressionLevel) -> [UInt8] {
    PNGEncoder.encode(raster, compressionLevel: level)
}
