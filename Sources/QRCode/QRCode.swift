import CQRencode

/// A QR code's modules, encoded by libqrencode (Debian's libqrencode-dev): `size` × `size`
/// squares, dark or light, row by row. It knows nothing of how it is drawn.
public struct QRCode: Sendable, Equatable {
    public let size: Int
    /// `size * size` values, row after row: true for a dark module.
    public let modules: [Bool]

    /// Medium error correction (15 % of the code may be lost), the version (the size) the
    /// smallest that holds `text`; nil when the text is too long for any version (about 2 kB).
    public init?(_ text: String, correction: Correction = .medium) {
        guard let encoded = text.withCString({ QRcode_encodeString8bit($0, 0, correction.level) }) else { return nil }
        defer { QRcode_free(encoded) }
        let size = Int(encoded.pointee.width)
        let data = UnsafeBufferPointer(start: encoded.pointee.data, count: size * size)
        self.size = size
        // The lowest bit of each byte says dark; the others say what the module is part of.
        modules = data.map { $0 & 1 == 1 }
    }

    public init(size: Int, modules: [Bool]) {
        precondition(modules.count == size * size, "a QR code has size × size modules")
        self.size = size
        self.modules = modules
    }

    public func isDark(x: Int, y: Int) -> Bool { modules[y * size + x] }

    public enum Correction: Sendable {
        case low, medium, quartile, high

        var level: QRecLevel {
            switch self {
            case .low: QR_ECLEVEL_L
            case .medium: QR_ECLEVEL_M
            case .quartile: QR_ECLEVEL_Q
            case .high: QR_ECLEVEL_H
            }
        }
    }
}
