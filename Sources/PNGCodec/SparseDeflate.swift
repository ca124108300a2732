/// A zlib stream writer for images that are mostly zeros: runs are coded as fixed-Huffman matches
/// (distance 1 for zeros, the pixel size for repeated pixels), so a transparent stretch of any length
/// costs a few bits per 258 bytes and is never touched byte by byte; its Adler-32 is computed in
/// closed form. Bytes from elsewhere (zlib's own raw deflate of the busy rows) can be spliced in
/// between, as long as their Adler-32 is folded in with `appendCompressed`.
struct SparseDeflate: ~Copyable {
    private var writer: FixedHuffmanWriter
    private var adlerA: UInt64 = 1
    private var adlerB: UInt64 = 0
    private var pendingZeros = 0
    /// The last byte of the uncompressed stream so far, if any.
    private var previousByte: UInt8?
    private var blockOpen = false

    private static let adlerModulus: UInt64 = 65_521

    init(capacity: Int) {
        var output = DeflateBuffer(capacity: capacity)
        output.append(0x78)
        output.append(0x01)
        writer = FixedHuffmanWriter(output: output)
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
                writer.writeSymbol(Int(phase == 0 ? bytes.0 : bytes.1))
                phase = (phase + 1) % size
                remaining -= 1
            }
        }
        adlerRepeat(bytes, size: size, count: count - 1)
        previousByte = size == 1 ? bytes.0 : bytes.1
    }

    /// Appends a raw deflate segment made elsewhere: it must start on a byte boundary, end on one
    /// (a sync flush) and not be final; `data` is what it decompresses to.
    mutating func appendCompressed(_ segment: [UInt8], data: [UInt8]) {
        flushZeros()
        alignWithEmptyStoredBlock()
        writer.output.append(contentsOf: segment)
        let checksum = UInt32(adlerB % Self.adlerModulus) << 16 | UInt32(adlerA % Self.adlerModulus)
        let combined = UInt64(
            Zlib.adler32(combining: checksum, Zlib.adler32(data.span), secondLength: data.count))
        adlerA = combined & 0xFFFF
        adlerB = combined >> 16
        if let last = data.last { previousByte = last }
    }

    /// Ends the stream: the final (empty-tailed) block and the Adler-32.
    consuming func finish() -> [UInt8] {
        flushZeros()
        if blockOpen { writer.writeSymbol(256) }
        // An empty final block ends the stream.
        writer.writeBits(1, count: 1)
        writer.writeBits(1, count: 2)
        writer.writeSymbol(256)
        writer.alignToByte()
        let a = adlerA % Self.adlerModulus
        let b = adlerB % Self.adlerModulus
        writer.output.append(littleEndian: UInt32(b << 16 | a).byteSwapped)
        return writer.output.array()
    }

    // MARK: - Pieces

    private mutating func flushZeros() {
        guard pendingZeros > 0 else { return }
        let count = pendingZeros
        pendingZeros = 0
        openBlock()
        var remaining = count
        if previousByte != 0 {
            writer.writeSymbol(0)
            remaining -= 1
        }
        // Whole 258-byte matches at distance 1.
        while remaining > 260 {
            writer.writeMatch(258, distanceBits: 0)
            remaining -= 258
        }
        while remaining > 0 {
            if remaining >= 3 {
                let length = min(258, remaining == 259 || remaining == 260 ? remaining - 3 : remaining)
                match(length: length, distanceCode: 0)
                remaining -= length
            } else {
                writer.writeSymbol(0)
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
        writer.writeSymbol(Int(byte))
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
        writer.writeBits(0, count: 1)  // not final: the stream ends with its own final block
        writer.writeBits(1, count: 2)  // fixed Huffman
        blockOpen = true
    }

    /// Ends the open block with an empty stored block, which leaves the stream byte-aligned.
    private mutating func alignWithEmptyStoredBlock() {
        if blockOpen {
            writer.writeSymbol(256)
            blockOpen = false
            writer.writeBits(0, count: 3)  // not final, stored
            writer.alignToByte()
            writer.output.append(contentsOf: [0, 0, 0xFF, 0xFF])
        }
    }

    /// A match at distance 1 (`distanceCode` 0) or 2 (1).
    private mutating func match(length: Int, distanceCode: Int) {
        writer.writeMatch(length, distanceBits: distanceCode == 0 ? 0 : 0b10000)
    }
}
