/// Where a `FixedHuffmanWriter` puts its bytes.
protocol DeflateOutput {
    mutating func append(_ byte: UInt8)
    /// Four bytes, the first in the low byte of `word`.
    mutating func append(littleEndian word: UInt32)
}

/// The bit level of a deflate stream in fixed-Huffman blocks (RFC 1951, 3.2.5 and 3.2.6):
/// literals, matches and raw bits, packed from the least significant bit into `output`. The
/// block structure, the zlib wrapper and the checksum belong to its users (`RunDeflate`,
/// `SparseDeflate`).
struct FixedHuffmanWriter<Output: DeflateOutput> {
    var output: Output
    private var bitBuffer: UInt64 = 0
    private var bitCount: UInt64 = 0

    init(output: Output) {
        self.output = output
    }

    /// The low `bits` bits of `value`, first bit first; at most 32 bits at a time.
    @inline(__always)
    mutating func writeBits(_ value: UInt64, count bits: UInt64) {
        bitBuffer |= value << bitCount
        bitCount += bits
        if bitCount >= 32 {
            output.append(littleEndian: UInt32(truncatingIfNeeded: bitBuffer))
            bitBuffer >>= 32
            bitCount -= 32
        }
    }

    /// A literal byte (0...255) or the end of block (256).
    @inline(__always)
    mutating func writeSymbol(_ symbol: Int) {
        let entry = FixedHuffmanCodes.literals[symbol]
        writeBits(UInt64(entry & 0xFFFF), count: UInt64(entry >> 16))
    }

    /// A match of `length` (3...258) at the distance whose 5-bit code, bit-reversed, is
    /// `distanceBits` (0 for distance 1, `0b10000` for distance 2).
    @inline(__always)
    mutating func writeMatch(_ length: Int, distanceBits: UInt64) {
        let entry = FixedHuffmanCodes.matches[length]
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

/// The fixed Huffman codes, bit-reversed for output from the least significant bit. Made once
/// and never changed or freed, so every stream reads them through a plain pointer.
enum FixedHuffmanCodes {
    /// Literal/length symbols 0...256: code in the low 16 bits, its length above.
    nonisolated(unsafe) static let literals: UnsafePointer<UInt32> = {
        let table = UnsafeMutablePointer<UInt32>.allocate(capacity: 257)
        for symbol in 0...256 {
            let (code, length) = code(symbol)
            table[symbol] = UInt32(length) << 16 | code
        }
        return UnsafePointer(table)
    }()

    /// For each match length 3...258: length symbol, extra bits and five zero bits for the
    /// distance code, in the low 24 bits; their total bit count above.
    nonisolated(unsafe) static let matches: UnsafePointer<UInt32> = {
        let bases = [
            3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195,
            227, 258,
        ]
        let extras = [0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0]
        let table = UnsafeMutablePointer<UInt32>.allocate(capacity: 259)
        table.initialize(repeating: 0, count: 259)
        for length in 3...258 {
            var index = bases.count - 1
            while bases[index] > length { index -= 1 }
            let (code, codeLength) = code(257 + index)
            let bits = code | UInt32(length - bases[index]) << UInt32(codeLength)
            table[length] = UInt32(codeLength + extras[index] + 5) << 24 | bits
        }
        return UnsafePointer(table)
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

/// Output into memory the caller owns and sized beforehand (`RunDeflate.bound`).
struct PointerDeflateOutput: DeflateOutput {
    let base: UnsafeMutablePointer<UInt8>
    private(set) var count = 0

    init(base: UnsafeMutablePointer<UInt8>) {
        self.base = base
    }

    @inline(__always)
    mutating func append(_ byte: UInt8) {
        base[count] = byte
        count += 1
    }

    @inline(__always)
    mutating func append(littleEndian word: UInt32) {
        UnsafeMutableRawPointer(base + count).storeBytes(of: word.littleEndian, as: UInt32.self)
        count += 4
    }
}

/// Output into a growing array.
struct ArrayDeflateOutput: DeflateOutput {
    var bytes: [UInt8]

    mutating func append(_ byte: UInt8) { bytes.append(byte) }

    mutating func append(littleEndian word: UInt32) {
        bytes.append(UInt8(truncatingIfNeeded: word))
        bytes.append(UInt8(truncatingIfNeeded: word >> 8))
        bytes.append(UInt8(truncatingIfNeeded: word >> 16))
        bytes.append(UInt8(truncatingIfNeeded: word >> 24))
    }
}
