import PNGCodec

/// The two checks of docs/glow.md: differences in 8-bit units over
/// premultiplied RGBA (or alpha alone for masks), split into edge / interior / exterior regions
/// from the coverage mask's 3 × 3 neighbourhood.
struct ImageComparison: CustomStringConvertible {
    struct Tolerances {
        var activeMean: Double
        var interiorMax: Int
        var exteriorMax: Int
        var edgeMax: Int
        var edgeMean: Double

        /// Whole picture against Skia.
        static let picture = Tolerances(activeMean: 2, interiorMax: 4, exteriorMax: 8, edgeMax: 80, edgeMean: 4)
        /// Coverage against an exact mask (`--alpha-only --strict`).
        static let strict = Tolerances(activeMean: 1, interiorMax: 4, exteriorMax: 4, edgeMax: 4, edgeMean: 1)
    }

    struct RegionStats {
        var count = 0
        var maximum = 0
        var sum = 0
        var mean: Double { count == 0 ? 0 : Double(sum) / Double(count * 4) }
    }

    var active = RegionStats()
    var edge = RegionStats()
    var interior = RegionStats()
    var exterior = RegionStats()

    /// Compares RGBA images; `mask` gives the regions (alpha is the icon's coverage).
    init(reference: DecodedPNG, candidate: DecodedPNG, mask: DecodedPNG, alphaOnly: Bool = false) {
        precondition(reference.width == candidate.width && reference.height == candidate.height)
        let width = reference.width
        let height = reference.height
        let coverage = (0..<width * height).map { Int(mask.rgba[$0 * 4 + 3]) }
        for y in 0..<height {
            for x in 0..<width {
                let pixel = y * width + x
                var low = 255
                var high = 0
                for dy in -1...1 {
                    for dx in -1...1 {
                        let value = coverage[min(height - 1, max(0, y + dy)) * width + min(width - 1, max(0, x + dx))]
                        low = min(low, value)
                        high = max(high, value)
                    }
                }
                let isEdge = low < 255 && high > 0
                let ref = Self.channels(reference, pixel, alphaOnly: alphaOnly)
                let cand = Self.channels(candidate, pixel, alphaOnly: alphaOnly)
                let differences = (0..<4).map { abs(ref[$0] - cand[$0]) }
                if ref[3] > 0 || cand[3] > 0 { Self.add(differences, to: &active) }
                if isEdge {
                    Self.add(differences, to: &edge)
                } else if coverage[pixel] == 255 {
                    Self.add(differences, to: &interior)
                } else if coverage[pixel] == 0 {
                    Self.add(differences, to: &exterior)
                }
            }
        }
    }

    func passes(_ tolerances: Tolerances) -> Bool {
        active.mean <= tolerances.activeMean && interior.maximum <= tolerances.interiorMax
            && exterior.maximum <= tolerances.exteriorMax && edge.maximum <= tolerances.edgeMax
            && edge.mean <= tolerances.edgeMean
    }

    var description: String {
        "active mean \(active.mean), interior max \(interior.maximum), exterior max \(exterior.maximum), "
            + "edge max \(edge.maximum), edge mean \(edge.mean)"
    }

    private static func channels(_ image: DecodedPNG, _ pixel: Int, alphaOnly: Bool) -> [Int] {
        let alpha = Int(image.rgba[pixel * 4 + 3])
        if alphaOnly { return [alpha, alpha, alpha, alpha] }
        return (0..<3).map { (Int(image.rgba[pixel * 4 + $0]) * alpha + 127) / 255 } + [alpha]
    }

    private static func add(_ differences: [Int], to stats: inout RegionStats) {
        stats.count += 1
        stats.maximum = max(stats.maximum, differences.max() ?? 0)
        stats.sum += differences.reduce(0, +)
    }
}
