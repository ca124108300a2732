/// A page made of the designer's own screen: an exported image with hotspots over it, and the
/// detail screens its hotspots push (docs/app-format.md, "Screens").
public struct ScreenPage: Sendable, Equatable, Codable {
    public var screen: ScreenView
    /// The detail screens its hotspots push, each one deep: a push from a detail replaces it.
    public var details: [ScreenDetail]
    /// The count its `increment` and `decrement` hotspots change, shown as the tab's badge while
    /// above zero; nil when no hotspot changes it.
    public var counter: CounterPage?

    public init(screen: ScreenView, details: [ScreenDetail] = [], counter: CounterPage? = nil) {
        self.screen = screen
        self.details = details
        self.counter = counter
    }

    /// The details as items, which is how the navigation stack knows what a tab may push.
    var detailItems: [PageItem] { details.map { PageItem(id: $0.id, title: $0.title) } }

    /// Every image of the page and its details, the page's own first.
    public var images: [ScreenImage] { screen.images + details.flatMap(\.screen.images) }
}

/// One screen: its image (in variants), the text that stands for it, and its hotspots.
public struct ScreenView: Sendable, Equatable, Codable {
    /// The first is the default; the others are for a device or an appearance.
    public var images: [ScreenImage]
    public var alt: LocalizedText
    public var hotspots: [Hotspot]

    public init(images: [ScreenImage], alt: LocalizedText, hotspots: [Hotspot] = []) {
        self.images = images
        self.alt = alt
        self.hotspots = hotspots
    }

    /// The image for `device` in `appearance`: the one made for both, else for the appearance,
    /// else for the device, else the default. `appearance` nil: one made for no appearance.
    public func image(for device: ScreenDevice, appearance: ScreenAppearance?) -> ScreenImage {
        func score(_ image: ScreenImage) -> Int? {
            if let wanted = image.device, wanted != device { return nil }
            if let wanted = image.appearance, wanted != appearance { return nil }
            return (image.appearance != nil ? 2 : 0) + (image.device != nil ? 1 : 0)
        }
        var best = images[0]
        var bestScore = -1
        for image in images {
            if let value = score(image), value > bestScore {
                best = image
                bestScore = value
            }
        }
        return best
    }

    /// The size hotspots are placed in: the default image's, in points.
    public var size: (width: Int, height: Int) { (images[0].pointWidth, images[0].pointHeight) }
}

/// The device an image was exported for: a phone (the bottom bar) or a tablet (the other layouts).
public enum ScreenDevice: String, Sendable, Equatable, Codable, CaseIterable {
    case phone, tablet

    public init(_ layout: Layout) {
        self = layout == .bottom ? .phone : .tablet
    }
}

public enum ScreenAppearance: String, Sendable, Equatable, Codable, CaseIterable {
    case light, dark
}

/// An image file of a screen, as the loader was given it: what it is, its size, its content's
/// fingerprint (which names it in URLs) and its bytes, which the server serves from memory
/// (never from a path a request names). The bytes are not encoded with the rest.
public struct ScreenImage: Sendable, Equatable, Codable {
    /// As written in the app file, relative to it.
    public var file: String
    public var format: ScreenImageFormat
    public var pixelWidth: Int
    public var pixelHeight: Int
    /// Pixels per point: `scale`, else `@2x` or `@3x` in the name, else 1.
    public var scale: Int
    /// The content's hash, hexadecimal: the image's name in its URL.
    public var fingerprint: String
    public var device: ScreenDevice?
    public var appearance: ScreenAppearance?
    public var bytes: [UInt8] = []

    private enum CodingKeys: String, CodingKey {
        case file, format, pixelWidth, pixelHeight, scale, fingerprint, device, appearance
    }

    public init(
        file: String, format: ScreenImageFormat, pixelWidth: Int, pixelHeight: Int, scale: Int, fingerprint: String,
        device: ScreenDevice? = nil, appearance: ScreenAppearance? = nil, bytes: [UInt8] = []
    ) {
        self.bytes = bytes
        self.file = file
        self.format = format
        self.pixelWidth = pixelWidth
        self.pixelHeight = pixelHeight
        self.scale = scale
        self.fingerprint = fingerprint
        self.device = device
        self.appearance = appearance
    }

    public var pointWidth: Int { pixelWidth / scale }
    public var pointHeight: Int { pixelHeight / scale }

    /// `/screens/FINGERPRINT.png`: content-addressed, so kept a year.
    public var path: String { "/screens/\(fingerprint).\(format.fileExtension)" }

    /// The scale a file's name declares: `@2x` or `@3x` before its extension, else 1.
    public static func scale(declaredBy file: String) -> Int {
        let name = file.split(separator: "/").last.map(String.init) ?? file
        let stem = name.split(separator: ".").first.map(String.init) ?? name
        if stem.hasSuffix("@3x") { return 3 }
        if stem.hasSuffix("@2x") { return 2 }
        return 1
    }
}

public enum ScreenImageFormat: String, Sendable, Equatable, Codable {
    case png, jpeg

    public var fileExtension: String { self == .png ? "png" : "jpg" }
    public var contentType: String { self == .png ? "image/png" : "image/jpeg" }
}

/// A rectangle over a screen, in the points of its default image, that does something.
public struct Hotspot: Sendable, Equatable, Codable {
    public var x: Int
    public var y: Int
    public var width: Int
    public var height: Int
    /// The accessible name of the link or button it is.
    public var label: LocalizedText
    public var action: HotspotAction

    public init(x: Int, y: Int, width: Int, height: Int, label: LocalizedText, action: HotspotAction) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
        self.label = label
        self.action = action
    }
}

public enum HotspotAction: Sendable, Equatable, Codable, CustomStringConvertible {
    /// Pushes the page's detail screen of this id.
    case push(String)
    /// Back to the tab's root screen (from a detail).
    case back
    /// Selects the tab of this id, through the container's rules, as a tap on its cell.
    case tab(String)
    /// A page action on the page's count (`increment`, `decrement`, `reset`).
    case pageAction(PageAction)

    /// `push workout`, `back`, `tab plans`, `increment`: as snapshots and the export say it.
    public var description: String {
        switch self {
        case .push(let id): "push \(id)"
        case .back: "back"
        case .tab(let id): "tab \(id)"
        case .pageAction(let action): action.description
        }
    }
}

/// A detail screen a hotspot pushes: the title of its navigation bar, and its screen.
public struct ScreenDetail: Sendable, Equatable, Codable {
    public var id: String
    public var title: LocalizedText
    public var screen: ScreenView

    public init(id: String, title: LocalizedText, screen: ScreenView) {
        self.id = id
        self.title = title
        self.screen = screen
    }
}

/// What the app's loader learns of a screen image file, from whoever reads files (the model
/// reads none): ``AppDescription/load(json:pathDataProblem:screenFile:)`` asks for each.
public struct ScreenFileInfo: Sendable, Equatable {
    public var format: ScreenImageFormat
    public var pixelWidth: Int
    public var pixelHeight: Int
    public var fingerprint: String
    public var bytes: [UInt8]

    public init(format: ScreenImageFormat, pixelWidth: Int, pixelHeight: Int, fingerprint: String, bytes: [UInt8]) {
        self.format = format
        self.pixelWidth = pixelWidth
        self.pixelHeight = pixelHeight
        self.fingerprint = fingerprint
        self.bytes = bytes
    }

    /// What `bytes` are, named by `fingerprint`; a file too large is refused before it is read
    /// (`ScreenFileProblem.tooLarge`), so every `bytes` here is at most `maximumBytes`.
    public static func of(_ bytes: [UInt8], fingerprint: String) -> Result<ScreenFileInfo, ScreenFileProblem> {
        guard bytes.count <= maximumBytes else { return .failure(.tooLarge(bytes: bytes.count)) }
        return reading(bytes).map { format, width, height in
            ScreenFileInfo(
                format: format, pixelWidth: width, pixelHeight: height, fingerprint: fingerprint, bytes: bytes)
        }
    }

    /// The largest file a screen may be, and the most pixels.
    public static let maximumBytes = 8 * 1024 * 1024
    public static let maximumPixels = 40_000_000

    /// Why a header's pixel size cannot be a screen's: none, or more than `maximumPixels`. A
    /// header's sizes are whatever its bytes say (a PNG's are 32-bit), so their product is
    /// computed without overflowing.
    public static func sizeProblem(width: Int, height: Int) -> ScreenFileProblem? {
        guard width >= 1, height >= 1 else { return .noPixels(width: width, height: height) }
        let (pixels, overflow) = width.multipliedReportingOverflow(by: height)
        guard overflow || pixels > maximumPixels else { return nil }
        return .tooManyPixels(width: width, height: height)
    }

    /// The format and pixel size `bytes` declare (a PNG's IHDR, a JPEG's start of frame), or why
    /// they are not a screen image. The name is not looked at.
    public static func reading(_ bytes: [UInt8]) -> Result<(ScreenImageFormat, Int, Int), ScreenFileProblem> {
        if bytes.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) {
            // Signature, then the IHDR chunk: length, "IHDR", width and height big-endian.
            guard bytes.count >= 24, bytes[12..<16].elementsEqual(Array("IHDR".utf8)) else {
                return .failure(.unreadable("a PNG without its header chunk"))
            }
            return .success((.png, bigEndian(bytes, 16, 4), bigEndian(bytes, 20, 4)))
        }
        if bytes.starts(with: [0xFF, 0xD8, 0xFF]) {
            // Segments until a start of frame (SOF0 to SOF15 but DHT, JPG and DAC).
            var index = 2
            while index + 9 < bytes.count {
                guard bytes[index] == 0xFF else { break }
                let marker = bytes[index + 1]
                if marker == 0xFF {
                    index += 1
                    continue
                }
                let length = bigEndian(bytes, index + 2, 2)
                if (0xC0...0xCF).contains(marker) && ![0xC4, 0xC8, 0xCC].contains(marker) {
                    return .success((.jpeg, bigEndian(bytes, index + 7, 2), bigEndian(bytes, index + 5, 2)))
                }
                guard length >= 2 else { break }
                index += 2 + length
            }
            return .failure(.unreadable("a JPEG without its frame header"))
        }
        return .failure(.notAnImage)
    }

    private static func bigEndian(_ bytes: [UInt8], _ start: Int, _ count: Int) -> Int {
        bytes[start..<start + count].reduce(0) { $0 << 8 | Int($1) }
    }
}

/// Why a screen image cannot be used.
public enum ScreenFileProblem: Error, Sendable, Equatable, CustomStringConvertible {
    case missing
    case outsideFolder
    case symbolicLink
    case notAnImage
    case unreadable(String)
    case tooLarge(bytes: Int)
    case tooManyPixels(width: Int, height: Int)
    case noPixels(width: Int, height: Int)

    public var description: String {
        switch self {
        case .missing: "no such file"
        case .outsideFolder: "the path leaves the app file's folder"
        case .symbolicLink: "a symbolic link; give the file itself"
        case .notAnImage: "not a PNG or JPEG file (its first bytes say neither)"
        case .unreadable(let what): "\(what)"
        case .tooLarge(let bytes):
            "\(bytes / 1024 / 1024) MB; a screen image is at most \(ScreenFileInfo.maximumBytes / 1024 / 1024) MB"
        case .tooManyPixels(let width, let height):
            "\(width)×\(height) pixels; a screen image has at most \(ScreenFileInfo.maximumPixels / 1_000_000) megapixels"
        case .noPixels(let width, let height):
            "its header says \(width)×\(height) pixels; a screen image has at least one"
        }
    }
}
