import CZlib

/// A zlib stream writer for images that are mostly zeros: runs are coded as fixed-Huffman matches
/// (distance 1 for zeros, the pixel size for repeated pixels), so a transparent stretch of any length
/// costs a few bits per 258 bytes and is never touched byte by byte; its Adler-32 is computed in
/// closed form. Bytes from elsewhere (zlib's own raw deflate of the busy rows) can be spliced in
/// between, as long as their Adler-32 is folded in with `appendCompressed`.
struct SparseDeflate {
    private(set) var output: [UInt8]
    private var bitBuffer: UInt64 = 0
    private var bitCount = 0
    private var adlerA: UInt64 = 1
    private var adlerB: UInt64 = 0
    private var pendingZeros = 0
    /// The last byte of the uncompressed stream so far, if any.
    private var previousByte: UInt8?
    private var blockOpen = false

    private static let adlerModulus: UInt64 = 65_521

    init(capacity: Int) {
        output = [0x78, 0x01]
        output.reserveCapacity(capacity)
    }

    /// `count` zero bytes.
    mutating func zeros(_ count: Int) {
        pendingZeros += count
    }

    /// One pixel of `bytes` repeated `count` times (bytes.count is 1 or 2).
    mutating func run(of bytes: (UInt8, UInt8), size: Int, count: Int) {
        guard count > 0 else { return }
        if bytes.0 == 0 && (size == 1 || bytes.1 == 0) {
            zeros(count * size)
            return
        }
        flushZeros()
        openBlock()
        literal(bytes.0)
        if size == 2 { literal(bytes.1) }
        var remaining = (count - 1) * size
        var phase = 0
        while remaining > 0 {
            if remaining >= 3 {
                let length = min(258, remaining == 259 || remaining == 260 ? remaining - 3 : remaining)
                match(length: length, distanceCode: size == 1 ? 0 : 1)
                phase = (phase + length) % size
                remaining -= length
            } else {
                writeSymbol(Int(phase == 0 ? bytes.0 : bytes.1))
                phase = (phase + 1) % size
                remaining -= 1
            }
        }
        adlerRepeat(bytes, size: size, count: count - 1)
        previousByte = size == 1 ? bytes.0 : bytes.1
    }

    /// Appends a raw deflate segment made elsewhere: it must start on a byte boundary, end on one
    /// (a sync flush) and not be final; `data` is what it decompresses to.
    mutating func appendCompressed(_ segment: UnsafeBufferPointer<UInt8>, data: UnsafeBufferPointer<UInt8>) {
        flushZeros()
        alignWithEmptyStoredBlock()
        output.append(contentsOf: segment)
        let checksum = UInt(adlerB % Self.adlerModulus) << 16 | UInt(adlerA % Self.adlerModulus)
        let combined = UInt64(
            adler32_combine(checksum, adler32(1, data.baseAddress, uInt(data.count)), off_t(data.count)))
        adlerA = combined & 0xFFFF
        adlerB = combined >> 16
        if let last = data.last { previousByte = last }
    }

    /// Ends the stream: the final (empty-tailed) block and the Adler-32.
    mutating func finish() -> [UInt8] {
        flushZeros()
        if blockOpen { writeSymbol(256) }
        // An empty final block ends the stream.
        writeBits(1, count: 1)
        writeBits(1, count: 2)
        writeSymbol(256)
        if bitCount > 0 { writeBits(0, count: (8 - bitCount % 8) % 8) }
        drainBits()
        let a = adlerA % Self.adlerModulus
        let b = adlerB % Self.adlerModulus
        let checksum = UInt32(b << 16 | a)
        output += [
            UInt8(checksum >> 24), UInt8((checksum >> 16) & 0xFF), UInt8((checksum >> 8) & 0xFF),
            UInt8(checksum & 0xFF),
        ]
        return output
    }

    // MARK: - Pieces

    private mutating func flushZeros() {
        guard pendingZeros > 0 else { return }
        let count = pendingZeros
        pendingZeros = 0
        openBlock()
        var remaining = count
        if previousByte != 0 {
            writeSymbol(0)
            remaining -= 1
        }
        // Whole 258-byte matches at distance 1: symbol 285 and distance code 0, 13 bits each.
        let longMatch = Self.longestZeroMatch
        while remaining > 260 {
            writeBits(longMatch, count: 13)
            remaining -= 258
        }
        while remaining > 0 {
            if remaining >= 3 {
                let length = min(258, remaining == 259 || remaining == 260 ? remaining - 3 : remaining)
                match(length: length, distanceCode: 0)
                remaining -= length
            } else {
                writeSymbol(0)
                remaining -= 1
            }
        }
        // Adler-32 of zeros: a is unchanged, b grows by a for each byte.
        adlerB = (adlerB + UInt64(count) % Self.adlerModulus * (adlerA % Self.adlerModulus)) % Self.adlerModulus
        previousByte = 0
    }

    private mutating func adlerRepeat(_ bytes: (UInt8, UInt8), size: Int, count: Int) {
        for _ in 0..<count {
            addToAdler(bytes.0)
            if size == 2 { addToAdler(bytes.1) }
        }
    }

    /// A literal byte, counted in the checksum.
    private mutating func literal(_ byte: UInt8) {
        writeSymbol(Int(byte))
        addToAdler(byte)
    }

    @inline(__always)
    private mutating func addToAdler(_ byte: UInt8) {
        adlerA += UInt64(byte)
        adlerB += adlerA
        if adlerB >= 1 << 60 {
            adlerA %= Self.adlerModulus
            adlerB %= Self.adlerModulus
        }
    }

    private mutating func openBlock() {
        guard !blockOpen else { return }
        writeBits(0, count: 1)  // not final: the stream ends with its own final block
        writeBits(1, count: 2)  // fixed Huffman
        blockOpen = true
    }

    /// Ends the open block with an empty stored block, which leaves the stream byte-aligned.
    private mutating func alignWithEmptyStoredBlock() {
        if blockOpen {
            writeSymbol(256)
            blockOpen = false
            writeBits(0, count: 3)  // not final, stored
            writeBits(0, count: (8 - bitCount % 8) % 8)
            drainBits()
            output += [0, 0, 0xFF, 0xFF]
        }
    }

    private mutating func match(length: Int, distanceCode: Int) {
        let (symbol, extraBits, extra) = Self.lengthCodes[length]
        writeSymbol(symbol)
        if extraBits > 0 { writeBits(UInt32(extra), count: extraBits) }
        writeBits(UInt32(Self.reversed(UInt32(distanceCode), bits: 5)), count: 5)  // distance 1 or 2
    }

    @inline(__always)
    private mutating func writeSymbol(_ symbol: Int) {
        let (code, length) = Self.fixedCodes[symbol]
        writeBits(code, count: length)
    }

    @inline(__always)
    private mutating func writeBits(_ value: UInt32, count: Int) {
        bitBuffer |= UInt64(value) << UInt64(bitCount)
        bitCount += count
        if bitCount >= 32 { drainBits() }
    }

    private mutating func drainBits() {
        while bitCount >= 8 {
            output.append(UInt8(truncatingIfNeeded: bitBuffer))
            bitBuffer >>= 8
            bitCount -= 8
        }
    }

    // MARK: - Tables (RFC 1951, 3.2.5 and 3.2.6)

    /// Fixed literal/length codes, bit-reversed for LSB-first output.
    private static let fixedCodes: [(UInt32, Int)] = (0..<288).map { symbol in
        switch symbol {
        case 0..<144: (reversed(UInt32(0x30 + symbol), bits: 8), 8)
        case 144..<256: (reversed(UInt32(0x190 + symbol - 144), bits: 9), 9)
        case 256..<280: (reversed(UInt32(symbol - 256), bits: 7), 7)
        default: (reversed(UInt32(0xC0 + symbol - 280), bits: 8), 8)
        }
    }

    /// Length 258 (symbol 285, no extra bits), then distance 1 (code 0, five zero bits).
    private static let longestZeroMatch: UInt32 = fixedCodes[285].0

    /// For each match length 3...258: its symbol, extra bit count and extra value.
    private static let lengthCodes: [(Int, Int, Int)] = {
        let bases = [
            3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195,
            227, 258,
        ]
        let extras = [0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0]
        var table = [(Int, Int, Int)](repeating: (0, 0, 0), count: 259)
        for length in 3...258 {
            var index = bases.count - 1
            while bases[index] > length { index -= 1 }
            table[length] = (257 + index, extras[index], length - bases[index])
        }
        return table
    }()

    private static func reversed(_ value: UInt32, bits: Int) -> UInt32 {
        var result: UInt32 = 0
        for bit in 0..<bits where value & (1 << UInt32(bit)) != 0 { result |= 1 << UInt32(bits - 1 - bit) }
        return result
    }
}
