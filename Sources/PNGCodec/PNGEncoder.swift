/// Writes PNG files: 8 bits per channel, no interlace, one IDAT chunk, no ancillary chunks, so the
/// same pixels always give the same bytes.
///
/// One colour at varying alpha is written as gray + alpha or as a palette of that colour at every
/// alpha (PLTE + tRNS, one byte a pixel), which decodes to exactly the pixels the RGBA form would;
/// anything else is straight-alpha RGBA. Transparent rows around a band of RGBA rows are coded as
/// runs without being materialised. The rasterizer's `PNGEncoder.encode(_:compressionLevel:)`
/// chooses among these forms for a raster.
public enum PNGEncoder {
    /// Chosen by measurement (see bench): level 1 costs about half of level 6 for a ~10% larger file.
    public static let defaultCompressionLevel: Int32 = 1

    /// Signature, IHDR, PLTE and tRNS of `entries` alphas of the colour (none: gray + alpha), the
    /// zlib stream `idat` of the pixels, IEND.
    public static func oneColourPNG(
        width: Int, height: Int, red: UInt8, green: UInt8, blue: UInt8, entries: Int, idat: [UInt8]
    ) -> [UInt8] {
        let size = 8 + (12 + 13) + (entries > 0 ? 24 + 4 * entries : 0) + (12 + idat.count) + 12
        var png = PNGFile(capacity: size)
        png.header(width: width, height: height, colorType: entries > 0 ? 3 : 4)
        if entries > 0 {
            // Entry 0 is transparent black, as the RGBA form writes empty pixels. Each chunk's data
            // is made whole first: a byte-array literal per entry cost a heap allocation each.
            var palette = [UInt8](repeating: 0, count: 3 * entries)
            for entry in 1..<entries {
                palette[3 * entry] = red
                palette[3 * entry + 1] = green
                palette[3 * entry + 2] = blue
            }
            png.chunk("PLTE", data: palette)
            png.chunk("tRNS", data: (0..<entries).map { UInt8($0) })
        }
        png.chunk("IDAT", data: idat)
        return png.finish()
    }

    /// RGBA of a `width × height` image whose pixels are all transparent outside the band of rows
    /// `top..<top + rows.count / (width · 4 + 1)` and, inside it, outside `columns`. `rows` holds the
    /// band's rows, each a filter byte (any value) and `width` straight-alpha pixels. The band's rows
    /// (Sub filter) go through zlib; the transparent rows above and below it are coded as runs
    /// around them. Nil when zlib refuses.
    public static func encode(
        rgbaBand rows: consuming [UInt8], top: Int, columns: Range<Int>, width: Int, height: Int, level: Int32
    ) -> [UInt8]? {
        let rowBytes = width * 4 + 1
        let bandHeight = rows.count / rowBytes
        rows.withUnsafeMutableBufferPointer { output in
            for row in 0..<bandHeight {
                let start = row * rowBytes
                output[start] = 1
                // Sub: each byte minus the one a pixel left; only the columns and the pixel after them change.
                let first = max(4, columns.lowerBound * 4)
                var index = min(width, columns.upperBound + 1) * 4 - 1
                while index >= first {
                    output[start + 1 + index] = output[start + 1 + index] &- output[start + 1 + index - 4]
                    index -= 1
                }
            }
        }
        var stream = SparseDeflate(capacity: 256 + rows.count / 2)
        stream.zeros(rowBytes * top)
        if !rows.isEmpty {
            guard let compressed = Zlib.rawDeflateSyncFlushed(rows, level: level) else { return nil }
            stream.appendCompressed(compressed, data: rows)
        }
        stream.zeros(rowBytes * (height - top - bandHeight))
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
