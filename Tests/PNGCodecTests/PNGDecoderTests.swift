import Testing

@testable import PNGCodec

struct PNGDecoderTests {
    /// A 2 × 1 RGBA file as the codec writes it.
    private static let file = PNGEncoder.encode(rgba: [255, 0, 0, 255, 0, 0, 255, 128], width: 2, height: 1)

    /// The file with the data of its first chunk of `type` changed by `change`, its CRC made good
    /// again when `fixingCRC`.
    private static func changed(_ type: String, fixingCRC: Bool = true, _ change: (inout [UInt8]) -> Void) -> [UInt8] {
        var bytes = file
        var offset = 8
        while offset + 12 <= bytes.count {
            let length = bytes[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) }
            if String(decoding: bytes[offset + 4..<offset + 8], as: UTF8.self) == type {
                var data = Array(bytes[offset + 8..<offset + 8 + length])
                change(&data)
                bytes.replaceSubrange(offset + 8..<offset + 8 + length, with: data)
                if fixingCRC {
                    let crc = Zlib.crc32(bytes.span.extracting(offset + 4..<offset + 8 + length))
                    let crcBytes = (0..<4).map { UInt8(truncatingIfNeeded: crc >> (24 - 8 * UInt32($0))) }
                    bytes.replaceSubrange(offset + 8 + length..<offset + 12 + length, with: crcBytes)
                }
                return bytes
            }
            offset += 12 + length
        }
        return bytes
    }

    private static func failure(_ bytes: [UInt8]) -> String? {
        do {
            _ = try DecodedPNG(bytes)
            return nil
        } catch {
            return error.description
        }
    }

    @Test func theCodecsOwnFileDecodesToItsPixels() throws {
        let decoded = try DecodedPNG(Self.file)
        #expect(decoded.width == 2 && decoded.height == 1 && decoded.rgba == [255, 0, 0, 255, 0, 0, 255, 128])
    }

    @Test func aFileThatIsNotAPNGIsRefused() {
        #expect(Self.failure(Array("GIF89a, or anything else".utf8)) == "not a PNG signature")
        #expect(Self.failure(Array(Self.file.prefix(8))) == "not a PNG signature")
    }

    @Test func aChangedChunkIsRefusedByItsCRC() {
        let changed = Self.changed("IDAT", fixingCRC: false) { $0[0] ^= 0x01 }
        #expect(Self.failure(changed) == "bad CRC in IDAT")
    }

    @Test func anImageWiderThanTheLimitIsRefusedBeforeItIsInflated() {
        let wide = Self.changed("IHDR") { header in
            header.replaceSubrange(0..<4, with: [0, 0, 0x10, 0x01])
        }
        #expect(Self.failure(wide) == "4097 x 1 pixels is outside 1...4096 a side")
    }

    @Test func interlacedAndSixteenBitFilesAreRefused() {
        #expect(Self.failure(Self.changed("IHDR") { $0[12] = 1 }) == "interlaced PNGs are not supported")
        #expect(Self.failure(Self.changed("IHDR") { $0[8] = 16 }) == "unsupported bit depth 16 / colour type 6")
    }
}
