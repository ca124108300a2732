import CZlib

/// The codec's calls into zlib. Pointers to Swift memory are made here, for the length of one
/// C call, and never leave this type: its callers pass and get arrays and spans.
enum Zlib {
    /// CRC-32 of `bytes`, as PNG chunks carry it.
    static func crc32(_ bytes: Span<UInt8>) -> UInt32 {
        let checksum = bytes.withUnsafeBufferPointer { CZlib.crc32(0, $0.baseAddress, uInt($0.count)) }
        return UInt32(truncatingIfNeeded: checksum)
    }

    /// Adler-32 of `bytes`, as zlib streams end with it.
    static func adler32(_ bytes: Span<UInt8>) -> UInt32 {
        let checksum = bytes.withUnsafeBufferPointer { CZlib.adler32(1, $0.baseAddress, uInt($0.count)) }
        return UInt32(truncatingIfNeeded: checksum)
    }

    /// The Adler-32 of two byte strings one after the other, from each one's checksum and the second's length.
    static func adler32(combining first: UInt32, _ second: UInt32, secondLength: Int) -> UInt32 {
        UInt32(truncatingIfNeeded: adler32_combine(uLong(first), uLong(second), off_t(secondLength)))
    }

    /// A zlib stream of `data` at `level` (0...9); nil only when zlib runs out of memory.
    static func compress(_ data: [UInt8], level: Int32) -> [UInt8]? {
        var capacity = compressBound(uLong(data.count))
        var output = [UInt8](repeating: 0, count: Int(capacity))
        let clampedLevel = min(9, max(0, level))
        let status = output.withUnsafeMutableBufferPointer { target in
            data.withUnsafeBufferPointer { source in
                compress2(target.baseAddress, &capacity, source.baseAddress, uLong(source.count), clampedLevel)
            }
        }
        // compress2 only fails for lack of memory or space, and compressBound rules out the second.
        guard status == Z_OK else { return nil }
        output.removeSubrange(Int(capacity)...)
        return output
    }

    /// Raw deflate (no zlib wrapper) of `data` at `level` ending in a sync flush: byte-aligned and
    /// not final. Nil when zlib refuses.
    static func rawDeflateSyncFlushed(_ data: [UInt8], level: Int32) -> [UInt8]? {
        var stream = z_stream()
        let clampedLevel = min(9, max(0, level))
        guard
            deflateInit2_(
                &stream, clampedLevel, Z_DEFLATED, -15, 8, Z_DEFAULT_STRATEGY, zlibVersion(),
                Int32(MemoryLayout<z_stream>.size)) == Z_OK
        else { return nil }
        defer { deflateEnd(&stream) }
        // Room for the worst case plus the flush marker.
        var output = [UInt8](repeating: 0, count: Int(deflateBound(&stream, uLong(data.count))) + 16)
        let status = output.withUnsafeMutableBufferPointer { target in
            data.withUnsafeBufferPointer { source in
                stream.next_in = UnsafeMutablePointer(mutating: source.baseAddress)
                stream.avail_in = uInt(source.count)
                stream.next_out = target.baseAddress
                stream.avail_out = uInt(target.count)
                return CZlib.deflate(&stream, Z_SYNC_FLUSH)
            }
        }
        // `stream` still holds the two pointers; deflateEnd frees zlib's state without reading them.
        guard status == Z_OK, stream.avail_in == 0, stream.avail_out > 0 else { return nil }
        output.removeSubrange(Int(stream.total_out)...)
        return output
    }

    /// The `count` bytes a zlib stream inflates to; nil when it is not a zlib stream of exactly
    /// that length, with zlib's status.
    static func uncompress(_ compressed: [UInt8], count: Int) -> Result<[UInt8], ZlibStatus> {
        var raw = [UInt8](repeating: 0, count: count)
        var rawLength = uLongf(raw.count)
        let status = compressed.withUnsafeBufferPointer { source in
            raw.withUnsafeMutableBufferPointer { target in
                CZlib.uncompress(target.baseAddress, &rawLength, source.baseAddress, uLong(source.count))
            }
        }
        guard status == Z_OK, Int(rawLength) == raw.count else { return .failure(ZlibStatus(code: status)) }
        return .success(raw)
    }
}

/// A status zlib returned for a stream it refused.
struct ZlibStatus: Error, CustomStringConvertible {
    let code: Int32

    var description: String { "\(code)" }
}
