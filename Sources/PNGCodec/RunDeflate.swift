/// A zlib stream of one fixed-Huffman block for a flat fill's pixels.
///
/// Pixels are one byte (a palette index) or two (gray, alpha), given as runs of one alpha; a
/// transparent pixel is all zero bytes. Every run of equal pixels is coded as a literal pixel and matches at
/// the pixel's distance, every run of zero bytes (transparent pixels and the rows' filter bytes) as
/// matches at distance 1, so a run costs O(1 + length / 258) however long it is, and its Adler-32
/// is added in closed form. A lone pixel (the common edge pixel) is one write of its literals' codes.
/// `RunDeflate.bound(bytes:runs:)` is room enough for the whole stream.
public struct RunDeflate: ~Copyable {
    private var writer: FixedHuffmanWriter
    /// 1 (palette index) or 2 (gray, alpha).
    @usableFromInline let pixelSize: Int
    private let gray: UInt8
    /// A lone pixel's literals before its alpha: the gray's code and bit count (none for an index).
    private let pixelPrefix: UInt64
    private let pixelPrefixBits: UInt64
    /// Adler-32 sums, reduced modulo 65521 after every run of more than one pixel and every row.
    private var adlerA: UInt64 = 1
    private var adlerB: UInt64 = 0
    /// The run being gathered: zero bytes when `runAlpha` is 0, else pixels of that alpha.
    @usableFromInline var runAlpha: UInt8 = 0
    @usableFromInline var runLength = 0
    /// The last two bytes written to the stream (the last in the low byte); -1 before any.
    private var lastBytes = -1

    private static let adlerModulus: UInt64 = 65_521
    /// The most pixels `append(pixels:alpha:)` may add between two `endRow()`s. Each lone pixel adds
    /// at most 510 to a and 2a + 510 to b, so after the at most 2²⁴ + 1 lone pixels between
    /// reductions a < 8.6·10⁹ and b < 1.5·10¹⁷, far from overflow.
    public static let widestRow = 1 << 24

    /// Bytes `RunDeflate` may write for `bytes` uncompressed bytes in at most `runs` runs: 2 of zlib
    /// header, 4 of checksum, the block's header and end (10 bits) and padding, and per run at most
    /// two 9-bit literals, 36 bits for its tail (two 18-bit matches or two 9-bit literals) and a
    /// 13-bit match per whole 258 bytes.
    public static func bound(bytes: Int, runs: Int) -> Int {
        (runs * (18 + 36) + bytes / 258 * 13 + 10 + 7) / 8 + 8
    }

    /// Starts the stream (zlib header and the block header) in a buffer of `capacity` bytes (it
    /// grows past them if need be); pixels are `pixelSize` bytes: the alpha alone, or `gray` and the alpha.
    public init(capacity: Int, pixelSize: Int, gray: UInt8 = 0) {
        writer = FixedHuffmanWriter(output: DeflateBuffer(capacity: capacity))
        self.pixelSize = pixelSize == 2 ? 2 : 1
        self.gray = gray
        let grayCode = FixedHuffmanCodes.literals[Int(gray)]
        pixelPrefix = self.pixelSize == 2 ? UInt64(grayCode & 0xFFFF) : 0
        pixelPrefixBits = self.pixelSize == 2 ? UInt64(grayCode >> 16) : 0
        writer.output.append(0x78)
        writer.output.append(0x01)
        writer.writeBits(0b011, count: 3)  // final block, fixed Huffman
    }

    /// `count` zero bytes.
    @inline(__always)
    public mutating func appendZeros(_ length: Int) {
        if runAlpha == 0 {
            runLength += length
        } else {
            flushRun()
            runAlpha = 0
            runLength = length
        }
    }

    /// `length` pixels of `alpha` (zero bytes when it is 0), joined to the run before when that has
    /// the same alpha, so the stream is the one the pixel bytes would give. At most `widestRow`
    /// pixels between two `endRow()`s.
    @inlinable @inline(__always)
    public mutating func append(pixels length: Int, alpha: UInt8) {
        if alpha == runAlpha {
            runLength += alpha == 0 ? length * pixelSize : length
        } else {
            startRun(alpha == 0 ? length * pixelSize : length, alpha: alpha)
        }
    }

    /// Writes the run before and starts one of `length` bytes (`alpha` 0) or pixels of `alpha`.
    @usableFromInline
    mutating func startRun(_ length: Int, alpha: UInt8) {
        flushRun()
        runAlpha = alpha
        runLength = length
    }

    /// Ends a row of pixels: the checksum's sums are reduced.
    public mutating func endRow() {
        adlerA %= Self.adlerModulus
        adlerB %= Self.adlerModulus
    }

    /// One pixel of a non-zero `alpha` between pixels that differ from it: its literals alone.
    @inline(__always)
    private mutating func writeLonePixel(_ alpha: UInt8) {
        let code = writer.literals[Int(alpha)]
        writer.writeBits(
            pixelPrefix | UInt64(code & 0xFFFF) << pixelPrefixBits, count: pixelPrefixBits + UInt64(code >> 16))
        let value = UInt64(alpha)
        if pixelSize == 2 {
            // b gains the two partial sums a + gray and a + gray + value.
            let gray = UInt64(gray)
            adlerB += 2 * adlerA + 2 * gray + value
            adlerA += gray + value
        } else {
            adlerA += value
            adlerB += adlerA
        }
        lastBytes = (pixelSize == 2 ? Int(self.gray) : lastBytes & 0xFF) << 8 | Int(alpha)
    }

    /// Ends the block and the stream, and returns the stream.
    public consuming func finish() -> [UInt8] {
        flushRun()
        writer.writeSymbol(256)
        writer.alignToByte()
        let checksum = UInt32(adlerB % Self.adlerModulus) << 16 | UInt32(adlerA % Self.adlerModulus)
        writer.output.append(littleEndian: checksum.byteSwapped)
        return writer.output.array()
    }

    /// Writes the run gathered so far: a lone pixel (the common case, inlined) or `writeRun`.
    @inline(__always)
    private mutating func flushRun() {
        if runLength == 1 && runAlpha != 0 {
            writeLonePixel(runAlpha)
        } else if runLength > 0 {
            writeRun(runLength, of: runAlpha)
        }
        runLength = 0
    }

    /// `length` zero bytes (`alpha` 0) or pixels of `alpha`, as literals and matches.
    private mutating func writeRun(_ length: Int, of alpha: UInt8) {
        if alpha == 0 {
            // Adler-32 of n zero bytes: a is unchanged, b grows by n·a.
            adlerB = (adlerB + UInt64(length) % Self.adlerModulus * adlerA) % Self.adlerModulus
            var remaining = length
            if lastBytes & 0xFF != 0 || lastBytes < 0 {
                writer.writeSymbol(0)
                remaining -= 1
            }
            // After a single zero at the very start, the byte before it is unknown: no pair matches.
            lastBytes = length >= 2 ? 0 : lastBytes < 0 ? 0x1_0000 : (lastBytes & 0xFF) << 8
            writeRepeats(remaining, distanceBits: 0) { _ in 0 }
        } else if pixelSize == 1 {
            // n copies of v: a grows by n·v, b by n·a + v·n(n+1)/2.
            let n = UInt64(length)
            let value = UInt64(alpha)
            let triangle = n * (n + 1) / 2 % Self.adlerModulus
            adlerB = (adlerB + n % Self.adlerModulus * adlerA + value * triangle) % Self.adlerModulus
            adlerA = (adlerA + n * value) % Self.adlerModulus
            var remaining = length
            if lastBytes & 0xFF != Int(alpha) || lastBytes < 0 {
                writer.writeSymbol(Int(alpha))
                remaining -= 1
            }
            lastBytes = (lastBytes & 0xFF) << 8 | Int(alpha)
            writeRepeats(remaining, distanceBits: 0) { _ in alpha }
        } else {
            // n copies of the pair (g, v): a grows by n(g + v); b by 2n·a + (g + v)·n(n − 1) + n(2g + v).
            let n = UInt64(length)
            let (g, v) = (UInt64(gray), UInt64(alpha))
            adlerB =
                (adlerB + 2 * (n % Self.adlerModulus) * adlerA + (g + v) * (n * (n - 1) % Self.adlerModulus)
                    + n * (2 * g + v)) % Self.adlerModulus
            adlerA = (adlerA + n * (g + v)) % Self.adlerModulus
            let pair = Int(gray) << 8 | Int(alpha)
            var remaining = 2 * length
            if lastBytes != pair {
                writer.writeSymbol(Int(gray))
                writer.writeSymbol(Int(alpha))
                remaining -= 2
            }
            lastBytes = pair
            // Distance 2 is distance code 1: five bits 00001, sent reversed.
            let gray = gray
            writeRepeats(remaining, distanceBits: 0b10000) { $0 % 2 == 0 ? gray : alpha }
        }
    }

    /// `remaining` bytes that repeat the stream's last bytes, as matches at the distance coded by
    /// `distanceBits`, and literals (`byte(i)` is the i-th of them) where fewer than 3 are left.
    @inline(__always)
    private mutating func writeRepeats(_ remaining: Int, distanceBits: UInt64, byte: (Int) -> UInt8) {
        var remaining = remaining
        var written = 0
        if remaining > 260 {
            // Whole 258-byte matches, two to a write while more than two are left.
            let entry = writer.matches[258]
            let bits = UInt64(entry >> 24)
            let one = UInt64(entry & 0xFF_FFFF) | distanceBits << (bits - 5)
            let two = one | one << bits
            while remaining > 2 * 258 + 260 {
                writer.writeBits(two, count: 2 * bits)
                remaining -= 2 * 258
                written += 2 * 258
            }
            while remaining > 260 {
                writer.writeBits(one, count: bits)
                remaining -= 258
                written += 258
            }
        }
        if remaining >= 259 {
            writer.writeMatch(remaining - 3, distanceBits: distanceBits)
            written += remaining - 3
            remaining = 3
        }
        if remaining >= 3 {
            writer.writeMatch(remaining, distanceBits: distanceBits)
        } else {
            for index in 0..<remaining { writer.writeSymbol(Int(byte(written + index))) }
        }
    }
}
