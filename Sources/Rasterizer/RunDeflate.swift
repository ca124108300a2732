/// A zlib stream of one fixed-Huffman block for a flat fill's pixels, written straight into memory
/// the caller owns.
///
/// Pixels are one byte (a palette index) or two (gray, alpha); a transparent pixel is all zero
/// bytes. Every run of equal pixels is coded as a literal pixel and matches at the pixel's distance,
/// every run of zero bytes (transparent pixels and the rows' filter bytes) as matches at distance 1,
/// so a run costs O(1 + length / 258) however long it is, and its Adler-32 is added in closed form.
/// The caller must give room for `RunDeflate.bound(bytes:runs:)` bytes.
struct RunDeflate {
    private let output: UnsafeMutablePointer<UInt8>
    /// 1 (palette index) or 2 (gray, alpha).
    private let pixelSize: Int
    private let gray: UInt8
    private(set) var count = 0
    private var bitBuffer: UInt64 = 0
    private var bitCount: UInt64 = 0
    private var adlerA: UInt64 = 1
    private var adlerB: UInt64 = 0
    /// The run being gathered: zero bytes when `runAlpha` is 0, else pixels of that alpha.
    private var runAlpha: UInt8 = 0
    private var runLength = 0
    /// The last two bytes written to the stream (the last in the low byte); -1 before any.
    private var lastBytes = -1

    private static let adlerModulus: UInt64 = 65_521

    /// Bytes `RunDeflate` may write for `bytes` uncompressed bytes in at most `runs` runs: 2 of zlib
    /// header, 4 of checksum, the block's header and end (10 bits) and padding, and per run at most
    /// two 9-bit literals, 36 bits for its tail (two 18-bit matches or two 9-bit literals) and a
    /// 13-bit match per whole 258 bytes.
    static func bound(bytes: Int, runs: Int) -> Int {
        (runs * (18 + 36) + bytes / 258 * 13 + 10 + 7) / 8 + 8
    }

    /// Starts the stream (zlib header and the block header) at `output`; pixels are `pixelSize`
    /// bytes: the alpha alone, or `gray` and the alpha.
    init(output: UnsafeMutablePointer<UInt8>, pixelSize: Int, gray: UInt8 = 0) {
        self.output = output
        self.pixelSize = pixelSize == 2 ? 2 : 1
        self.gray = gray
        output[0] = 0x78
        output[1] = 0x01
        count = 2
        writeBits(0b011, count: 3)  // final block, fixed Huffman
    }

    /// `count` zero bytes.
    @inline(__always)
    mutating func appendZeros(_ length: Int) {
        if runAlpha == 0 {
            runLength += length
        } else {
            flushRun()
            runAlpha = 0
            runLength = length
        }
    }

    /// One pixel for each alpha of `alphas` (zero bytes for alpha 0).
    mutating func append(alphas: UnsafeBufferPointer<UInt8>) {
        var alpha = runAlpha
        var length = runLength
        let zeroStep = pixelSize
        for next in alphas {
            if next == alpha {
                length += next == 0 ? zeroStep : 1
            } else {
                runAlpha = alpha
                runLength = length
                flushRun()
                alpha = next
                length = next == 0 ? zeroStep : 1
            }
        }
        runAlpha = alpha
        runLength = length
    }

    /// Ends the block and the stream; `count` is then the stream's length.
    mutating func finish() {
        flushRun()
        writeSymbol(256)
        if bitCount % 8 != 0 { bitCount += 8 - bitCount % 8 }
        while bitCount > 0 {
            output[count] = UInt8(truncatingIfNeeded: bitBuffer)
            count += 1
            bitBuffer >>= 8
            bitCount -= 8
        }
        let checksum = UInt32(adlerB % Self.adlerModulus) << 16 | UInt32(adlerA % Self.adlerModulus)
        output[count] = UInt8(checksum >> 24)
        output[count + 1] = UInt8((checksum >> 16) & 0xFF)
        output[count + 2] = UInt8((checksum >> 8) & 0xFF)
        output[count + 3] = UInt8(checksum & 0xFF)
        count += 4
    }

    private mutating func flushRun() {
        let length = runLength
        guard length > 0 else { return }
        runLength = 0
        let alpha = runAlpha
        if length == 1 && alpha != 0 {
            // A lone pixel (an edge pixel, the common case): literals only.
            if pixelSize == 2 {
                writeSymbol(Int(gray))
                adlerA += UInt64(gray)
                adlerB += adlerA
            }
            writeSymbol(Int(alpha))
            adlerA += UInt64(alpha)
            adlerB += adlerA
            adlerA %= Self.adlerModulus
            adlerB %= Self.adlerModulus
            lastBytes = (pixelSize == 2 ? Int(gray) : lastBytes & 0xFF) << 8 | Int(alpha)
            return
        }
        if alpha == 0 {
            // Adler-32 of n zero bytes: a is unchanged, b grows by n·a.
            adlerB = (adlerB + UInt64(length) % Self.adlerModulus * adlerA) % Self.adlerModulus
            var remaining = length
            if lastBytes & 0xFF != 0 || lastBytes < 0 {
                writeSymbol(0)
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
                writeSymbol(Int(alpha))
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
                writeSymbol(Int(gray))
                writeSymbol(Int(alpha))
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
        while remaining > 260 {
            writeMatch(258, distanceBits: distanceBits)
            remaining -= 258
            written += 258
        }
        if remaining >= 259 {
            writeMatch(remaining - 3, distanceBits: distanceBits)
            written += remaining - 3
            remaining = 3
        }
        if remaining >= 3 {
            writeMatch(remaining, distanceBits: distanceBits)
        } else {
            for index in 0..<remaining { writeSymbol(Int(byte(written + index))) }
        }
    }

    @inline(__always)
    private mutating func writeMatch(_ length: Int, distanceBits: UInt64) {
        let entry = Self.matchCodes[length]
        let bits = UInt64(entry >> 24)
        writeBits(UInt64(entry & 0xFF_FFFF) | distanceBits << (bits - 5), count: bits)
    }

    @inline(__always)
    private mutating func writeSymbol(_ symbol: Int) {
        let entry = Self.literalCodes[symbol]
        writeBits(UInt64(entry & 0xFFFF), count: UInt64(entry >> 16))
    }

    @inline(__always)
    private mutating func writeBits(_ value: UInt64, count bits: UInt64) {
        bitBuffer |= value << bitCount
        bitCount += bits
        if bitCount >= 32 {
            UnsafeMutableRawPointer(output + count).storeBytes(
                of: UInt32(truncatingIfNeeded: bitBuffer).littleEndian, as: UInt32.self)
            count += 4
            bitBuffer >>= 32
            bitCount -= 32
        }
    }

    // MARK: - Tables (RFC 1951, 3.2.5 and 3.2.6), bit-reversed for LSB-first output

    /// Literal/length symbols 0...256: code in the low 16 bits, its length above.
    private static let literalCodes: [UInt32] = (0...256).map { symbol in
        let (code, length) = fixedCode(symbol)
        return UInt32(length) << 16 | code
    }

    /// For each match length 3...258: length symbol, extra bits and five zero bits for the distance
    /// code, in the low 24 bits; their total bit count above.
    private static let matchCodes: [UInt32] = {
        let bases = [
            3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195,
            227, 258,
        ]
        let extras = [0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0]
        var table = [UInt32](repeating: 0, count: 259)
        for length in 3...258 {
            var index = bases.count - 1
            while bases[index] > length { index -= 1 }
            let (code, codeLength) = fixedCode(257 + index)
            let bits = code | UInt32(length - bases[index]) << UInt32(codeLength)
            table[length] = UInt32(codeLength + extras[index] + 5) << 24 | bits
        }
        return table
    }()

    private static func fixedCode(_ symbol: Int) -> (code: UInt32, length: Int) {
        switch symbol {
        case 0..<144: (reversed(UInt32(0x30 + symbol), bits: 8), 8)
        case 144..<256: (reversed(UInt32(0x190 + symbol - 144), bits: 9), 9)
        case 256..<280: (reversed(UInt32(symbol - 256), bits: 7), 7)
        default: (reversed(UInt32(0xC0 + symbol - 280), bits: 8), 8)
        }
    }

    private static func reversed(_ value: UInt32, bits: Int) -> UInt32 {
        var result: UInt32 = 0
        for bit in 0..<bits where value & (1 << UInt32(bit)) != 0 { result |= 1 << UInt32(bits - 1 - bit) }
        return result
    }
}
