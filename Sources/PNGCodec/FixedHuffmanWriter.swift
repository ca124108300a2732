/// The bit level of a deflate stream in fixed-Huffman blocks (RFC 1951, 3.2.5 and 3.2.6):
/// literals, matches and raw bits, packed from the least significant bit into `output`. The
/// block structure, the zlib wrapper and the checksum belong to its users (`RunDeflate`,
/// `SparseDeflate`).
struct FixedHuffmanWriter: ~Copyable {
    var output: DeflateBuffer
    private var bitBuffer: UInt64 = 0
    private var bitCount: UInt64 = 0
    /// `FixedHuffmanCodes`' tables, copied in once per stream so that reading them needs no check
    /// that the globals are made.
    let literals = FixedHuffmanCodes.literals
    let matches = FixedHuffmanCodes.matches

    init(output: consuming DeflateBuffer) {
        self.output = output
    }

    /// The low `bits` bits of `value`, first bit first; at most 32 bits at a time. The bits gather
    /// in a 64-bit word that goes out whole when it fills.
    @inline(__always)
    mutating func writeBits(_ value: UInt64, count bits: UInt64) {
        bitBuffer |= value &<< bitCount
        let total = bitCount + bits
        if total >= 64 {
            output.append(littleEndian: bitBuffer)
            // bitCount was at least 32, so the shift is 1...32: the bits of `value` that did not fit.
            bitBuffer = value &>> (64 - bitCount)
            bitCount = total - 64
        } else {
            bitCount = total
        }
    }

    /// A literal byte (0...255) or the end of block (256).
    @inline(__always)
    mutating func writeSymbol(_ symbol: Int) {
        let entry = literals[symbol]
        writeBits(UInt64(entry & 0xFFFF), count: UInt64(entry >> 16))
    }

    /// A match of `length` (3...258) at the distance whose 5-bit code, bit-reversed, is
    /// `distanceBits` (0 for distance 1, `0b10000` for distance 2).
    @inline(__always)
    mutating func writeMatch(_ length: Int, distanceBits: UInt64) {
        let entry = matches[length]
        let bits = UInt64(entry >> 24)
        writeBits(UInt64(entry & 0xFF_FFFF) | distanceBits << (bits - 5), count: bits)
    }

    /// Zero bits up to the next byte boundary, then every whole byte out.
    mutating func alignToByte() {
        if bitCount % 8 != 0 { bitCount += 8 - bitCount % 8 }
        while bitCount > 0 {
            output.append(UInt8(truncatingIfNeeded: bitBuffer))
            bitBuffer >>= 8
            bitCount -= 8
        }
    }
}

/// The fixed Huffman codes, bit-reversed for output from the least significant bit.
enum FixedHuffmanCodes {
    /// Literal/length symbols 0...256: code in the low 16 bits, its length above.
    static let literals: InlineArray<257, UInt32> = {
        var table = InlineArray<257, UInt32>(repeating: 0)
        for symbol in 0...256 {
            let (code, length) = code(symbol)
            table[symbol] = UInt32(length) << 16 | code
        }
        return table
    }()

    /// For each match length 3...258: length symbol, extra bits and five zero bits for the
    /// distance code, in the low 24 bits; their total bit count above.
    static let matches: InlineArray<259, UInt32> = {
        let bases = [
            3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195,
            227, 258,
        ]
        let extras = [0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0]
        var table = InlineArray<259, UInt32>(repeating: 0)
        for length in 3...258 {
            var index = bases.count - 1
            while bases[index] > length { index -= 1 }
            let (code, codeLength) = code(257 + index)
            let bits = code | UInt32(length - bases[index]) << UInt32(codeLength)
            table[length] = UInt32(codeLength + extras[index] + 5) << 24 | bits
        }
        return table
    }()
    private static func code(_ symbol: Int) -> (code: UInt32, length: Int) {
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

/// The bytes of a deflate stream being written, in memory this buffer allocates, grows and
/// frees; no pointer to it leaves the type. It is made with room for the whole stream
/// (`RunDeflate.bound`); each write still checks for room, and grows it if a bound was short.
struct DeflateBuffer: ~Copyable {
    private var base: UnsafeMutablePointer<UInt8>
    private var capacity: Int
    private(set) var count = 0

    /// An empty buffer with room for `capacity` bytes before it grows.
    init(capacity: Int) {
        self.capacity = max(16, capacity)
        base = .allocate(capacity: self.capacity)
    }

    deinit { base.deallocate() }

    @inline(__always)
    mutating func append(_ byte: UInt8) {
        if count >= capacity { grow(toHold: count + 1) }
        base[count] = byte
        count += 1
    }

    /// Eight bytes, the first in the low byte of `word`.
    @inline(__always)
    mutating func append(littleEndian word: UInt64) {
        if count + 8 > capacity { grow(toHold: count + 8) }
        UnsafeMutableRawPointer(base + count).storeBytes(of: word.littleEndian, as: UInt64.self)
        count += 8
    }

    /// Four bytes, the first in the low byte of `word`.
    mutating func append(littleEndian word: UInt32) {
        if count + 4 > capacity { grow(toHold: count + 4) }
        UnsafeMutableRawPointer(base + count).storeBytes(of: word.littleEndian, as: UInt32.self)
        count += 4
    }

    mutating func append(contentsOf bytes: [UInt8]) {
        if count + bytes.count > capacity { grow(toHold: count + bytes.count) }
        _ = UnsafeMutableBufferPointer(start: base + count, count: bytes.count).initialize(fromContentsOf: bytes)
        count += bytes.count
    }

    /// The bytes written, as an array.
    func array() -> [UInt8] {
        Array(UnsafeBufferPointer(start: base, count: count))
    }

    private mutating func grow(toHold needed: Int) {
        let larger = max(needed, 2 * capacity)
        let moved = UnsafeMutablePointer<UInt8>.allocate(capacity: larger)
        moved.moveInitialize(from: base, count: count)
        base.deallocate()
        base = moved
        capacity = larger
    }
}
