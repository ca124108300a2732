import CQRencode

/// A QR code's modules, encoded by libqrencode (`QRCodeLibrary`): `size` × `size` squares,
/// dark or light, row by row. It knows nothing of how it is drawn.
public struct QRCode: Sendable, Equatable {
    public let size: Int
    /// `size * size` values, row after row: true for a dark module.
    public let modules: [Bool]

    /// Medium error correction (15 % of the code may be lost), the version (the size) the
    /// smallest that holds `text`; nil when the text is too long for any version (about 2 kB),
    /// or when the process has no libqrencode (`QRCodeLibrary.shared` says why).
    public init?(_ text: String, correction: Correction = .medium) {
        self.init(text, correction: correction, from: QRCodeLibrary.shared.library)
    }

    /// The code of `text` as `library` encodes it; nil without one.
    public init?(_ text: String, correction: Correction = .medium, from library: QRCodeLibrary?) {
        guard let library,
            let encoded = text.withCString({ library.encode($0, 0, correction.level) })
        else { return nil }
        defer { library.free(encoded) }
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
