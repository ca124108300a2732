import DrawnPictures
import Foundation
import Testing

/// examples/screens/ is what ExampleScreens draws: the example app's pictures are the project's
/// own, and `scripts/example-screens` writes them again after a change to the drawing.
@Suite struct ExampleScreensTests {
    @Test func theExamplesScreensAreTheOnesTheRasterizerDraws() throws {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("examples/screens")
        let drawn = ExampleScreens.all()
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".png") }
        #expect(files.sorted() == drawn.map(\.name).sorted())
        for screen in drawn {
            let file = try Data(contentsOf: folder.appendingPathComponent(screen.name))
            #expect(Array(file) == screen.png, "\(screen.name): run scripts/example-screens")
        }
    }
}
