import Dispatch
import Foundation
import PathGeometry
import Rasterizer
import Testing

@testable import IconCatalog

struct IconCatalogTests {
    @Test func everyNamedIconParsesAndDrawsInsideItsBox() throws {
        // The first ten, then what a designer reaches for next (issue 36): 42 in all.
        #expect(
            IconCatalog.names == [
                "home", "search", "wallet", "news", "person", "inbox", "star", "settings", "bell", "chart",
                "people", "heart", "calendar", "clock", "chat", "mail", "phone", "map", "pin", "camera", "photo",
                "play", "music", "book", "bookmark", "cart", "bag", "card", "gift", "list", "grid", "folder", "doc",
                "cloud", "download", "share", "plus", "compass", "flame", "bolt", "leaf", "dumbbell",
            ])
        for name in IconCatalog.names {
            let icon = try #require(IconCatalog.icon(named: name), "\(name) is missing")
            let mask = renderCoverage(icon.path, fillRule: icon.fillRule, scale: .x1)
            let covered = mask.values.reduce(0, +)
            // A real glyph: neither a speck nor a filled box (the 24 × 24 box is 576 px at 1x).
            #expect(covered > 100 && covered < 450, "\(name) covers \(covered) px")
            for y in 0..<80 {
                for x in 0..<80 where x < 28 || x >= 52 || y < 13 || y >= 37 {
                    // Float sums leave residues near 1e-8: what counts is what rounds to a visible 8-bit value.
                    #expect(mask[x, y] < 0.5 / 255, "\(name) spills out of its box at \(x),\(y)")
                }
            }
        }
        #expect(IconCatalog.icon(named: "nope") == nil)
    }

    @Test func holesAreHoles() throws {
        // The gear's centre, the magnifying glass's lens and the news picture are empty.
        let checks: [(String, Double, Double)] = [
            ("settings", 12, 12), ("search", 10.5, 10.5), ("news", 9, 8.5), ("clock", 8, 15), ("pin", 12, 9.5),
            ("camera", 8.3, 13.3), ("compass", 7, 8), ("photo", 7, 8), ("calendar", 12, 17.5), ("mail", 12, 13.5),
        ]
        for (name, x, y) in checks {
            let icon = try #require(IconCatalog.icon(named: name))
            let mask = renderCoverage(icon.path, fillRule: icon.fillRule, scale: .x1)
            #expect(mask[28 + Int(x), 13 + Int(y)] < 0.5 / 255, "\(name) should be empty at \(x),\(y)")
        }
    }

    /// Every built-in icon at every scale, with the glow and unselected, against the
    /// fingerprints (entity tags of the PNGs) kept in Fixtures/builtin-icons.json: a change of
    /// the art or of the drawing shows here, icon by icon. `TABSTAGE_RECORD_ICONS=1` writes the
    /// file anew (then run scripts/icon-sheet for the picture docs/app-format.md shows).
    @Test func everyBuiltInIconDrawsAsRecorded() throws {
        let renderer = IconRenderer(capacityInBytes: 0)
        var drawn: [String: String] = [:]
        for name in IconCatalog.names {
            for state in [IconState.selected, .unselected] {
                for scale in [IconScale.x1, .x2, .x3] {
                    let png = try renderer.png(
                        for: IconRequest(source: .builtIn(name: name), state: state, scale: scale))
                    drawn["\(name)/\(state.rawValue)@\(scale.rawValue)x"] = png.etag
                }
            }
        }
        let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appending(path: "Fixtures/builtin-icons.json")
        if ProcessInfo.processInfo.environment["TABSTAGE_RECORD_ICONS"] == "1" {
            let data = try JSONSerialization.data(withJSONObject: drawn, options: [.prettyPrinted, .sortedKeys])
            try data.write(to: file)
        }
        let kept = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [String: String],
            "no fingerprints at \(file.path): record them with TABSTAGE_RECORD_ICONS=1")
        #expect(drawn.count == IconCatalog.names.count * 6)
        for key in drawn.keys.sorted() where kept[key] != drawn[key] {
            Issue.record("\(key) draws differently from its recorded fingerprint (TABSTAGE_RECORD_ICONS=1 records it)")
        }
        #expect(Set(kept.keys) == Set(drawn.keys), "fingerprints of icons that are gone, or missing")
    }

    /// docs/app-format.md shows the icons as one picture with their names in a table: the
    /// picture's listing (scripts/icon-sheet writes both) and the table follow the catalogue.
    @Test func theDocsPictureShowsEveryBuiltInIconInOrder() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let listing =
            try JSONSerialization.jsonObject(
                with: Data(contentsOf: root.appending(path: "docs/images/icons.json"))) as? [String: Any]
        let names = try #require(listing?["names"] as? [String])
        #expect(names == IconCatalog.names, "run scripts/icon-sheet and commit docs/images/icons.*")
        let columns = try #require(listing?["columns"] as? Int)
        let format = try String(contentsOf: root.appending(path: "docs/app-format.md"), encoding: .utf8)
        for (row, start) in stride(from: 0, to: names.count, by: columns).enumerated() {
            let cells = names[start..<min(start + columns, names.count)].map { "`\($0)`" }.joined(separator: " ")
            #expect(format.contains("| \(row + 1) | \(cells) |"), "docs/app-format.md's row \(row + 1)")
        }
    }

    @Test func theCacheEvictsTheLeastRecentlyUsedByBytes() {
        let cache = ByteBoundedCache<String, [UInt8]>(capacityInBytes: 10) { $0.count }
        cache.insert([1, 2, 3, 4], forKey: "a")
        cache.insert([1, 2, 3, 4], forKey: "b")
        #expect(cache.value(forKey: "a") == [1, 2, 3, 4])  // now "b" is the oldest
        cache.insert([1, 2, 3, 4], forKey: "c")
        #expect(cache.value(forKey: "b") == nil)
        #expect(cache.value(forKey: "a") != nil && cache.value(forKey: "c") != nil)
        #expect(cache.totalBytes == 8 && cache.count == 2)
        cache.insert(Array(repeating: 0, count: 11), forKey: "huge")
        #expect(cache.value(forKey: "huge") == nil && cache.totalBytes == 8)
        cache.insert([9], forKey: "a")
        #expect(cache.value(forKey: "a") == [9] && cache.totalBytes == 5)
        cache.insert(Array(repeating: 0, count: 10), forKey: "all")
        #expect(cache.count == 1 && cache.totalBytes == 10)
    }

    @Test func theCacheStaysConsistentUnderConcurrentUse() {
        let cache = ByteBoundedCache<Int, [UInt8]>(capacityInBytes: 100) { $0.count }
        DispatchQueue.concurrentPerform(iterations: 8) { worker in
            for index in 0..<500 {
                let key = (worker * 7 + index) % 40
                if cache.value(forKey: key) == nil {
                    cache.insert(Array(repeating: UInt8(key), count: 1 + key % 9), forKey: key)
                }
            }
        }
        #expect(cache.totalBytes <= 100)
        for key in 0..<40 {
            if let value = cache.value(forKey: key) {
                #expect(value == Array(repeating: UInt8(key), count: 1 + key % 9))
            }
        }
    }

    @Test func theRendererReturnsStablePNGsAndETags() throws {
        let renderer = IconRenderer()
        let request = IconRequest(source: .builtIn(name: "star"), state: .selected, scale: .x2)
        let first = try renderer.png(for: request)
        #expect(first.etag.hasPrefix("\"") && first.etag.hasSuffix("\""))
        #expect(renderer.cachedBytes > first.bytes.count)
        let again = try IconRenderer().png(for: request)
        #expect(again.bytes == first.bytes && again.etag == first.etag)
        let unselected = try renderer.png(
            for: IconRequest(source: .builtIn(name: "star"), state: .unselected, scale: .x2))
        #expect(unselected.etag != first.etag)
        let inline = try renderer.png(for: IconRequest(source: .pathData("M2 2 H22 V22 H2 Z", fillRule: .evenOdd)))
        #expect(inline.bytes.count > 8)
    }

    @Test func theRendererReportsBadRequests() {
        let renderer = IconRenderer()
        #expect(throws: IconRequestError.unknownIcon("rocket")) {
            try renderer.png(for: IconRequest(source: .builtIn(name: "rocket")))
        }
        #expect(throws: IconRequestError.badPathData(PathSyntaxError(offset: 5, reason: .expectedNumber))) {
            try renderer.png(for: IconRequest(source: .pathData("M1 2L", fillRule: .nonZero)))
        }
        #expect(renderer.cachedBytes == 0)
    }
}
