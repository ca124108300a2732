import Colour
import PNGCodec
import PathGeometry
import Rasterizer

/// Where an icon's shape comes from: the built-in set or path data sent with the request.
public enum IconSource: Hashable, Sendable {
    case builtIn(name: String)
    case pathData(String, fillRule: FillRule)
}

/// Everything that decides the bytes of one icon PNG.
public struct IconRequest: Hashable, Sendable {
    public var source: IconSource
    public var state: IconState
    public var scale: IconScale
    public var tint: RGBColor
    public var color: RGBColor

    public init(
        source: IconSource, state: IconState = .selected, scale: IconScale = .x1,
        tint: RGBColor = .defaultTint, color: RGBColor = .black
    ) {
        self.source = source
        self.state = state
        self.scale = scale
        self.tint = tint
        self.color = color
    }
}

public enum IconRequestError: Error, Equatable, CustomStringConvertible {
    case unknownIcon(String)
    case badPathData(PathSyntaxError)

    public var description: String {
        switch self {
        case .unknownIcon(let name):
            "no built-in icon named '\(name)' (known: \(IconCatalog.names.joined(separator: ", ")))"
        case .badPathData(let error): error.description
        }
    }
}

/// A rendered icon file and its strong entity tag (a hash of the bytes, quoted as HTTP wants it).
public struct RenderedIcon: Sendable, Equatable {
    public let png: [UInt8]
    public let etag: String
}

/// Renders icon PNGs on demand and keeps the recent ones, bounded by bytes. Safe to call from any
/// number of threads; two threads missing on the same key may both render, and both get the same
/// bytes.
public final class IconRenderer: Sendable {
    public static let defaultCapacityInBytes = 8 << 20

    private let cache: ByteBoundedCache<IconRequest, RenderedIcon>
    private let compressionLevel: Int32

    public init(
        capacityInBytes: Int = IconRenderer.defaultCapacityInBytes,
        compressionLevel: Int32 = PNGEncoder.defaultCompressionLevel
    ) {
        // Keys hold inline path data, up to 32 KiB each: count it, so many large keys cannot grow
        // the cache past its bound.
        self.cache = ByteBoundedCache(capacityInBytes: capacityInBytes) { $0.png.count + $0.etag.utf8.count + 64 }
        self.compressionLevel = compressionLevel
    }

    public func png(for request: IconRequest) throws(IconRequestError) -> (bytes: [UInt8], etag: String) {
        let rendered = try render(request)
        return (rendered.png, rendered.etag)
    }

    public func render(_ request: IconRequest) throws(IconRequestError) -> RenderedIcon {
        if let cached = cache.value(forKey: request) { return cached }
        let path: PathData
        let fillRule: FillRule
        switch request.source {
        case .builtIn(let name):
            guard let icon = IconCatalog.icon(named: name) else { throw .unknownIcon(name) }
            (path, fillRule) = (icon.path, icon.fillRule)
        case .pathData(let text, let rule):
            do {
                path = try PathData(parsing: text)
            } catch {
                throw .badPathData(error)
            }
            fillRule = rule
        }
        let raster = renderIcon(
            path, fillRule: fillRule, state: request.state, scale: request.scale, tint: request.tint,
            color: request.color)
        let bytes = encodePNG(raster, level: compressionLevel)
        let rendered = RenderedIcon(png: bytes, etag: Self.entityTag(for: bytes))
        cache.insert(rendered, forKey: request)
        return rendered
    }

    public var cachedBytes: Int { cache.totalBytes }

    /// FNV-1a over the bytes: stable across processes and runs, unlike `Hasher`.
    static func entityTag(for bytes: [UInt8]) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes {
            hash ^= UInt64(byte)
            hash &*= 0x0000_0100_0000_01b3
        }
        let hex = String(hash, radix: 16)
        return "\"" + String(repeating: "0", count: 16 - hex.count) + hex + "-\(bytes.count)\""
    }
}
