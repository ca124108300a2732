import Colour

/// Writes PNG files: 8 bits per channel, no interlace, one IDAT chunk, no ancillary chunks, so the
/// same raster always gives the same bytes.
///
/// A flat fill (one colour × coverage) is written as a palette of that colour at every alpha (PLTE +
/// tRNS, one byte a pixel), which decodes to exactly the pixels the RGBA form would. Any other raster is straight-alpha RGBA. Rows outside the raster's
/// box are all transparent: they get filter None and are coded as runs without being materialised.
public enum PNGEncoder {
    /// Chosen by measurement (see bench): level 1 costs about half of level 6 for a ~10% larger file.
    public static let defaultCompressionLevel: Int32 = 1

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
        return flatPNG(
            width: width, height: height, color: color, entries: isGray ? 0 : Int(largestAlpha) + 1,
            idat: stream.finish())
    }

    /// Signature, IHDR, PLTE and tRNS of `entries` alphas of `color` (none: gray + alpha), IDAT, IEND.
    private static func flatPNG(
        width: Int, height: Int, color: RGBColor, entries: Int, idat: [UInt8]
    ) -> [UInt8] {
        let size = 8 + (12 + 13) + (entries > 0 ? 24 + 4 * entries : 0) + (12 + idat.count) + 12
        var png = PNGFile(capacity: size)
        png.header(width: width, height: height, colorType: entries > 0 ? 3 : 4)
        if entries > 0 {
            // Entry 0 is transparent black, as the RGBA form writes empty pixels.
            png.chunk("PLTE") { file in
                file.put(contentsOf: [0, 0, 0])
                for _ in 1..<entries { file.put(contentsOf: [color.red, color.green, color.blue]) }
            }
            png.chunk("tRNS") { file in
                for index in 0..<entries { file.put(UInt8(index)) }
            }
        }
        png.chunk("IDAT", data: idat)
        return png.finish()
    }

    /// RGBA: the box's rows (Sub filter) go through zlib; the transparent rows above and below it
    /// are coded as runs around them. Nil when zlib refuses.
    static func encodeDense(width: Int, height: Int, box: PixelBox, values: [Float], level: Int32) -> [UInt8]? {
        let box = box.isEmpty || values.count != box.area * 4 ? PixelBox.empty : box
        let rowBytes = width * 4 + 1
        var rows = [UInt8](repeating: 0, count: box.isEmpty ? 0 : rowBytes * box.height)
        Raster.writeStraight(values, box: box, into: &rows) { row in row * rowBytes + 1 + box.x * 4 }
        rows.withUnsafeMutableBufferPointer { output in
            for row in 0..<box.height {
                let start = row * rowBytes
                output[start] = 1
                // Sub: each byte minus the one a pixel left; only the box and the pixel after it change.
                let first = max(4, box.x * 4)
                var index = min(width, box.x + box.width + 1) * 4 - 1
                while index >= first {
                    output[start + 1 + index] = output[start + 1 + index] &- output[start + 1 + index - 4]
                    index -= 1
                }
            }
        }
        var stream = SparseDeflate(capacity: 256 + rows.count / 2)
        stream.zeros(rowBytes * box.y)
        if !rows.isEmpty {
            guard let compressed = Zlib.rawDeflateSyncFlushed(rows, level: level) else { return nil }
            stream.appendCompressed(compressed, data: rows)
        }
        stream.zeros(rowBytes * (height - box.y - max(0, box.height)))
        let idat = stream.finish()
        var png = PNGFile(capacity: idat.count + 64)
        png.header(width: width, height: height, colorType: 6)
        png.chunk("IDAT", data: idat)
        return png.finish()
    }

    /// `rgba` holds `width · height` straight-alpha pixels.
    public static func encode(rgba: [UInt8], width: Int, height: Int, level: Int32 = defaultCompressionLevel) -> [UInt8]
    {
        let rowBytes = width * 4
        // Each row gets filter type 1 (Sub): cheap, and it turns flat runs of colour into zeros.
        var filtered = [UInt8](repeating: 0, count: (rowBytes + 1) * height)
        filtered.withUnsafeMutableBufferPointer { output in
            rgba.withUnsafeBufferPointer { input in
                for row in 0..<height {
                    let source = row * rowBytes
                    let target = row * (rowBytes + 1)
                    output[target] = 1
                    for index in 0..<min(4, rowBytes) { output[target + 1 + index] = input[source + index] }
                    if rowBytes > 4 {
                        for index in 4..<rowBytes {
                            output[target + 1 + index] = input[source + index] &- input[source + index - 4]
                        }
                    }
                }
            }
        }
        let idat = deflate(filtered, level: level)
        var png = PNGFile(capacity: idat.count + 64)
        png.header(width: width, height: height, colorType: 6)
        png.chunk("IDAT", data: idat)
        return png.finish()
    }

    /// A zlib stream of `data`: zlib's at `level`, stored blocks if zlib fails.
    static func deflate(_ data: [UInt8], level: Int32) -> [UInt8] {
        Zlib.compress(data, level: level) ?? storedZlibStream(data)
    }

    /// A zlib stream of stored blocks: valid without any compression, for the case zlib refuses.
    private static func storedZlibStream(_ data: [UInt8]) -> [UInt8] {
        var stream: [UInt8] = [0x78, 0x01]
        var offset = 0
        repeat {
            let length = min(65_535, data.count - offset)
            let isLast: UInt8 = offset + length == data.count ? 1 : 0
            stream += [
                isLast, UInt8(length & 0xFF), UInt8(length >> 8), UInt8(~length & 0xFF), UInt8((~length >> 8) & 0xFF),
            ]
            stream += data[offset..<offset + length]
            offset += length
        } while offset < data.count
        appendBigEndian(Zlib.adler32(data.span), to: &stream)
        return stream
    }

    private static func appendBigEndian(_ value: UInt32, to bytes: inout [UInt8]) {
        bytes += [UInt8(value >> 24), UInt8((value >> 16) & 0xFF), UInt8((value >> 8) & 0xFF), UInt8(value & 0xFF)]
    }
}

/// The PNG bytes of a raster (see `PNGEncoder`).
public func encodePNG(_ raster: Raster, level: Int32 = PNGEncoder.defaultCompressionLevel) -> [UInt8] {
    PNGEncoder.encode(raster, compressionLevel: level)
}
