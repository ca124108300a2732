import CZlib

/// Writes PNG files: 8-bit RGBA, straight alpha, no interlace, one IDAT chunk, no ancillary chunks,
/// so the same raster always gives the same bytes.
public enum PNGEncoder {
    /// Chosen by measurement (see bench): level 1 costs about half of level 6 for a ~10% larger file.
    public static let defaultCompressionLevel: Int32 = 1

    public static func encode(_ raster: Raster, compressionLevel: Int32 = defaultCompressionLevel) -> [UInt8] {
        encode(rgba: raster.straightRGBA8(), width: raster.width, height: raster.height, level: compressionLevel)
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
        var png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        var header: [UInt8] = []
        appendBigEndian(UInt32(width), to: &header)
        appendBigEndian(UInt32(height), to: &header)
        header += [8, 6, 0, 0, 0]  // 8 bits, RGBA, deflate, adaptive filtering, no interlace
        appendChunk("IHDR", header, to: &png)
        appendChunk("IDAT", deflate(filtered, level: level), to: &png)
        appendChunk("IEND", [], to: &png)
        return png
    }

    static func deflate(_ data: [UInt8], level: Int32) -> [UInt8] {
        var capacity = compressBound(uLong(data.count))
        var output = [UInt8](repeating: 0, count: Int(capacity))
        let clampedLevel = min(9, max(0, level))
        let status = output.withUnsafeMutableBufferPointer { target in
            data.withUnsafeBufferPointer { source in
                compress2(target.baseAddress, &capacity, source.baseAddress, uLong(data.count), clampedLevel)
            }
        }
        // compress2 only fails for lack of memory or space, and compressBound rules out the second.
        guard status == Z_OK else { return storedZlibStream(data) }
        output.removeSubrange(Int(capacity)...)
        return output
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
        let checksum = data.withUnsafeBufferPointer { adler32(1, $0.baseAddress, uInt(data.count)) }
        appendBigEndian(UInt32(truncatingIfNeeded: checksum), to: &stream)
        return stream
    }

    private static func appendChunk(_ type: String, _ body: [UInt8], to png: inout [UInt8]) {
        appendBigEndian(UInt32(body.count), to: &png)
        let typeBytes = Array(type.utf8)
        var checksum = typeBytes.withUnsafeBufferPointer { crc32(0, $0.baseAddress, uInt($0.count)) }
        checksum = body.withUnsafeBufferPointer { crc32(checksum, $0.baseAddress, uInt($0.count)) }
        png += typeBytes
        png += body
        appendBigEndian(UInt32(truncatingIfNeeded: checksum), to: &png)
    }

    private static func appendBigEndian(_ value: UInt32, to bytes: inout [UInt8]) {
        bytes += [UInt8(value >> 24), UInt8((value >> 16) & 0xFF), UInt8((value >> 8) & 0xFF), UInt8(value & 0xFF)]
    }
}

/// The PNG bytes of a raster (see `PNGEncoder`).
public func encodePNG(_ raster: Raster, level: Int32 = PNGEncoder.defaultCompressionLevel) -> [UInt8] {
    PNGEncoder.encode(raster, compressionLevel: level)
}
