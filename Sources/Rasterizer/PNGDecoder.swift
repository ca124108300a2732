import CZlib

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
        guard bytes.count > 8, Array(bytes[0..<8]) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] else {
            throw Failure(description: "not a PNG signature")
        }
        var offset = 8
        var header: [UInt8] = []
        var compressed: [UInt8] = []
        var palette: [UInt8] = []
        var transparency: [UInt8] = []
        while offset + 12 <= bytes.count {
            let length = Int(Self.bigEndian(bytes, offset))
            let type = String(decoding: bytes[offset + 4..<offset + 8], as: UTF8.self)
            guard offset + 12 + length <= bytes.count else { throw Failure(description: "truncated \(type) chunk") }
            let body = Array(bytes[offset + 8..<offset + 8 + length])
            let stored = Self.bigEndian(bytes, offset + 8 + length)
            let computed = bytes[offset + 4..<offset + 8 + length].withUnsafeBufferPointer { typeAndBody in
                crc32(0, typeAndBody.baseAddress, uInt(typeAndBody.count))
            }
            guard UInt32(computed) == stored else { throw Failure(description: "bad CRC in \(type)") }
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
        let stride = width * channels
        var raw = [UInt8](repeating: 0, count: (stride + 1) * height)
        var rawLength = uLongf(raw.count)
        let status = compressed.withUnsafeBufferPointer { source in
            raw.withUnsafeMutableBufferPointer { target in
                uncompress(target.baseAddress, &rawLength, source.baseAddress, uLong(source.count))
            }
        }
        guard status == Z_OK, Int(rawLength) == raw.count else {
            throw Failure(description: "bad zlib data (\(status))")
        }
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
                case 4: predictor = Self.paeth(left, up, upLeft)
                default: throw Failure(description: "unknown filter \(filter)")
                }
                pixels[row * stride + index] = value &+ predictor
            }
        }
        if channels == 4 {
            rgba = pixels
        } else if channels == 2 {
            var expanded = [UInt8](repeating: 0, count: width * height * 4)
            for pixel in 0..<width * height {
                for channel in 0..<3 { expanded[pixel * 4 + channel] = pixels[pixel * 2] }
                expanded[pixel * 4 + 3] = pixels[pixel * 2 + 1]
            }
            rgba = expanded
        } else if channels == 1 {
            var expanded = [UInt8](repeating: 0, count: width * height * 4)
            for pixel in 0..<width * height {
                let index = Int(pixels[pixel])
                guard index * 3 + 2 < palette.count else { throw Failure(description: "index \(index) past the PLTE") }
                for channel in 0..<3 { expanded[pixel * 4 + channel] = palette[index * 3 + channel] }
                expanded[pixel * 4 + 3] = index < transparency.count ? transparency[index] : 255
            }
            rgba = expanded
        } else {
            var expanded = [UInt8](repeating: 255, count: width * height * 4)
            for pixel in 0..<width * height {
                for channel in 0..<3 { expanded[pixel * 4 + channel] = pixels[pixel * 3 + channel] }
            }
            rgba = expanded
        }
    }

    private static func paeth(_ a: UInt8, _ b: UInt8, _ c: UInt8) -> UInt8 {
        let p = Int(a) + Int(b) - Int(c)
        let pa = abs(p - Int(a))
        let pb = abs(p - Int(b))
        let pc = abs(p - Int(c))
        if pa <= pb && pa <= pc { return a }
        return pb <= pc ? b : c
    }

    private static func bigEndian(_ bytes: [UInt8], _ offset: Int) -> UInt32 {
        UInt32(bytes[offset]) << 24 | UInt32(bytes[offset + 1]) << 16 | UInt32(bytes[offset + 2]) << 8
            | UInt32(bytes[offset + 3])
    }
}
