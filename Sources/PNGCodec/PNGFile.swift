/// A PNG file being written: the signature, then chunks, each its data's length, its type, its
/// data and the CRC-32 of type and data (PNG specification, 5.3). Every encoder writes through it.
struct PNGFile {
    private(set) var bytes: [UInt8]

    init(capacity: Int) {
        bytes = []
        bytes.reserveCapacity(capacity)
        bytes += [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
    }

    /// IHDR: the size, 8 bits per sample, `colorType` (3 palette, 4 grey + alpha, 6 RGBA), deflate,
    /// the standard filters, no interlace.
    mutating func header(width: Int, height: Int, colorType: UInt8) {
        chunk("IHDR") { file in
            file.put32(UInt32(width))
            file.put32(UInt32(height))
            file.put(contentsOf: [8, colorType, 0, 0, 0])
        }
    }

    /// One chunk of `type` (four ASCII letters), whose data `writeData` appends.
    mutating func chunk(_ type: StaticString, _ writeData: (inout PNGFile) -> Void) {
        let lengthAt = bytes.count
        put32(0)
        let typeAt = bytes.count
        type.withUTF8Buffer { bytes.append(contentsOf: $0) }
        writeData(&self)
        let length = UInt32(bytes.count - typeAt - 4)
        for index in 0..<4 { bytes[lengthAt + index] = UInt8(truncatingIfNeeded: length >> (24 - 8 * UInt32(index))) }
        put32(Zlib.crc32(bytes.span.extracting(typeAt...)))
    }

    /// A chunk whose data is `data`.
    mutating func chunk(_ type: StaticString, data: some Collection<UInt8>) {
        chunk(type) { $0.put(contentsOf: data) }
    }

    /// The IEND chunk, and the file.
    consuming func finish() -> [UInt8] {
        chunk("IEND") { _ in }
        return bytes
    }

    mutating func put(_ byte: UInt8) { bytes.append(byte) }

    mutating func put(contentsOf data: some Collection<UInt8>) { bytes.append(contentsOf: data) }

    /// Big-endian, as every number in a PNG file.
    mutating func put32(_ value: UInt32) {
        bytes += [UInt8(value >> 24), UInt8((value >> 16) & 0xFF), UInt8((value >> 8) & 0xFF), UInt8(value & 0xFF)]
    }
}
