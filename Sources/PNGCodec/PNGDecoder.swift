/// Just enough of a PNG reader for our own files and the test fixtures: 8-bit RGBA, RGB, gray +
/// alpha or palette (with tRNS), no interlace, every filter type. The snapshot command compares
/// icons by their pixels with it, so a change of compression alone is no change.
public struct DecodedPNG: Equatable, Sendable {
    public let width: Int
    public let height: Int
    /// Straight-alpha RGBA, row-major.
    public let rgba: [UInt8]

    /// Wider or taller images are refused before anything is allocated for them.
    public static let largestSide = 4096

    public struct Failure: Error, CustomStringConvertible {
        public let description: String

        public init(description: String) {
            self.description = description
        }
    }

    public init(_ bytes: [UInt8]) throws(Failure) {
        let chunks = try Chunks(bytes)
        let header = chunks.header
        guard header.count == 13 else { throw Failure(description: "no IHDR") }
        width = Int(Self.bigEndian(header, 0))
        height = Int(Self.bigEndian(header, 4))
        let channels: Int
        switch (header[8], header[9]) {
        case (8, 6): channels = 4
        case (8, 2): channels = 3
        case (8, 4): channels = 2
        case (8, 3): channels = 1
        default: throw Failure(description: "unsupported bit depth \(header[8]) / colour type \(header[9])")
        }
        guard header[12] == 0 else { throw Failure(description: "interlaced PNGs are not supported") }
        guard width > 0, height > 0, width <= Self.largestSide, height <= Self.largestSide else {
            throw Failure(description: "\(width) x \(height) pixels is outside 1...\(Self.largestSide) a side")
        }
        let pixels = try Self.unfiltered(
            Self.inflated(chunks.compressed, count: (width * channels + 1) * height), width: width, height: height,
            channels: channels)
        rgba = try Self.expanded(pixels, channels: channels, chunks: chunks)
    }

    /// The chunks the decoder reads, each CRC-checked, up to `IEND`.
    private struct Chunks {
        var header: [UInt8] = []
        var compressed: [UInt8] = []
        var palette: [UInt8] = []
        var transparency: [UInt8] = []

        init(_ bytes: [UInt8]) throws(Failure) {
            guard bytes.count > 8, Array(bytes[0..<8]) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] else {
                throw Failure(description: "not a PNG signature")
            }
            var offset = 8
            while offset + 12 <= bytes.count {
                let length = Int(DecodedPNG.bigEndian(bytes, offset))
                let type = String(decoding: bytes[offset + 4..<offset + 8], as: UTF8.self)
                guard offset + 12 + length <= bytes.count else { throw Failure(description: "truncated \(type) chunk") }
                let body = Array(bytes[offset + 8..<offset + 8 + length])
                let stored = DecodedPNG.bigEndian(bytes, offset + 8 + length)
                let computed = Zlib.crc32(bytes.span.extracting(offset + 4..<offset + 8 + length))
                guard computed == stored else { throw Failure(description: "bad CRC in \(type)") }
                switch type {
                case "IHDR": header = body
                case "IDAT": compressed += body
                case "PLTE": palette = body
                case "tRNS": transparency = body
                default: break
                }
                offset += 12 + length
                if type == "IEND" { break }
            }
        }
    }

    /// The zlib stream, which must inflate to exactly `count` bytes.
    private static func inflated(_ compressed: [UInt8], count: Int) throws(Failure) -> [UInt8] {
        switch Zlib.uncompress(compressed, count: count) {
        case .success(let raw): return raw
        case .failure(let status): throw Failure(description: "bad zlib data (\(status))")
        }
    }

    /// The rows with each one's filter undone (every filter type of the PNG specification).
    private static func unfiltered(_ raw: [UInt8], width: Int, height: Int, channels: Int) throws(Failure) -> [UInt8] {
        let stride = width * channels
        var pixels = [UInt8](repeating: 0, count: stride * height)
        for row in 0..<height {
            let filter = raw[row * (stride + 1)]
            for index in 0..<stride {
                let value = raw[row * (stride + 1) + 1 + index]
                let left = index >= channels ? pixels[row * stride + index - channels] : 0
                let up = row > 0 ? pixels[(row - 1) * stride + index] : 0
                let upLeft = row > 0 && index >= channels ? pixels[(row - 1) * stride + index - channels] : 0
                let predictor: UInt8
                switch filter {
                case 0: predictor = 0
                case 1: predictor = left
                case 2: predictor = up
                case 3: predictor = UInt8((Int(left) + Int(up)) / 2)
                case 4: predictor = paeth(left, up, upLeft)
                default: throw Failure(description: "unknown filter \(filter)")
                }
                pixels[row * stride + index] = value &+ predictor
            }
        }
        return pixels
    }

    /// Straight-alpha RGBA from RGBA, gray + alpha, palette indices (with `tRNS`) or RGB.
    private static func expanded(_ pixels: [UInt8], channels: Int, chunks: Chunks) throws(Failure) -> [UInt8] {
        guard channels != 4 else { return pixels }
        let count = pixels.count / channels
        var expanded = [UInt8](repeating: 255, count: count * 4)
        for pixel in 0..<count {
            switch channels {
            case 2:
                for channel in 0..<3 { expanded[pixel * 4 + channel] = pixels[pixel * 2] }
                expanded[pixel * 4 + 3] = pixels[pixel * 2 + 1]
            case 1:
                let index = Int(pixels[pixel])
                let palette = chunks.palette
                guard index * 3 + 2 < palette.count else { throw Failure(description: "index \(index) past the PLTE") }
                for channel in 0..<3 { expanded[pixel * 4 + channel] = palette[index * 3 + channel] }
                expanded[pixel * 4 + 3] = index < chunks.transparency.count ? chunks.transparency[index] : 255
            default:
                for channel in 0..<3 { expanded[pixel * 4 + channel] = pixels[pixel * 3 + channel] }
            }
        }
        return expanded
    }

    private static func paeth(_ a: UInt8, _ b: UInt8, _ c: UInt8) -> UInt8 {
        let p = Int(a) + Int(b) - Int(c)
        let pa = abs(p - Int(a))
        let pb = abs(p - Int(b))
        let pc = abs(p - Int(c))
        if pa <= pb && pa <= pc { return a }
        return pb <= pc ? b : c
    }

    fileprivate static func bigEndian(_ bytes: [UInt8], _ offset: Int) -> UInt32 {
        UInt32(bytes[offset]) << 24 | UInt32(bytes[offset + 1]) << 16 | UInt32(bytes[offset + 2]) << 8
            | UInt32(bytes[offset + 3])
    }
}
