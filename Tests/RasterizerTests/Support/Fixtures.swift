import Foundation
import PNGCodec
import PathGeometry

/// The reference renders of docs/glow.md, copied next to the tests (found from this file's path, so the
/// suite needs neither SwiftPM resources nor /work/shared).
enum Fixtures {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures")

    static func png(_ name: String) throws -> DecodedPNG {
        try DecodedPNG(Array(Data(contentsOf: directory.appendingPathComponent(name))))
    }

    static func iconPathData(_ icon: String) throws -> (data: String, fillRule: String) {
        let json = try Data(contentsOf: directory.appendingPathComponent("icons.json"))
        let icons = try JSONDecoder().decode([String: ReferenceIcon].self, from: json)
        guard let entry = icons[icon] else { throw DecodedPNG.Failure(description: "no icon \(icon) in icons.json") }
        return (entry.d, entry.fillRule)
    }

    private struct ReferenceIcon: Decodable {
        let d: String
        let fillRule: String
    }
}
