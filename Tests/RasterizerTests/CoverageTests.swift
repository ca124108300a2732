import Testing

@testable import PathGeometry
@testable import Rasterizer

struct CoverageTests {
    private func coverage(_ data: String, _ rule: FillRule = .nonZero, size: Int = 4) throws -> CoverageMask {
        let elements = try PathData(parsing: data).elements
        return CoverageAccumulator.deltas(width: size, height: size, fillRule: rule) { accumulator in
            Flattener().flatten(elements, transform: .scaleThenTranslate(scale: 1, dx: 0, dy: 0)) {
                accumulator.addLine(from: $0, to: $1)
            }
        }.mask
    }

    @Test func aHalfPixelOffsetSquareCoversQuarters() throws {
        let mask = try coverage("M0.5 0.5 H2.5 V2.5 H0.5 Z")
        #expect(mask[0, 0] == 0.25 && mask[1, 0] == 0.5 && mask[1, 1] == 1 && mask[2, 2] == 0.25 && mask[3, 3] == 0)
    }

    @Test func aDiagonalEdgeGetsTheExactArea() throws {
        // The triangle below the diagonal of a 2 × 2 square: half of each diagonal pixel.
        let mask = try coverage("M0 0 L2 2 L0 2 Z")
        #expect(abs(mask[0, 0] - 0.5) < 1e-6 && abs(mask[1, 1] - 0.5) < 1e-6 && mask[0, 1] == 1 && mask[1, 0] == 0)
    }

    @Test func windingDirectionDoesNotMatterAndOverlapsFollowTheRule() throws {
        let clockwise = try coverage("M0 0 H3 V3 H0 Z")
        let counter = try coverage("M0 0 V3 H3 V0 Z")
        #expect(clockwise == counter)
        let twice = "M0 0 H3 V3 H0 Z M1 1 H2 V2 H1 Z"
        #expect(try coverage(twice, .nonZero)[1, 1] == 1)
        #expect(try coverage(twice, .evenOdd)[1, 1] == 0)
        #expect(try coverage(twice, .evenOdd)[0, 0] == 1)
    }

    @Test func shapesOutsideTheImageAreClippedNotWrapped() throws {
        let mask = try coverage("M-2 -2 H2 V2 H-2 Z")
        #expect(mask[0, 0] == 1 && mask[1, 1] == 1 && mask[2, 0] == 0 && mask[0, 2] == 0)
        let right = try coverage("M3 0 H9 V1 H3 Z")
        #expect(right[3, 0] == 1 && right[0, 1] == 0 && right[2, 0] == 0)
    }

    @Test func aCircleCoversItsArea() throws {
        let mask = try coverage("M10 5 A5 5 0 1 1 0 5 A5 5 0 1 1 10 5 Z", size: 10)
        let area = Double(mask.values.reduce(0, +))
        // Chords lie inside a convex curve: about 2/3 · tolerance · perimeter (0.21 px²) is lost.
        #expect(area < Double.pi * 25 && area > Double.pi * 25 - 0.3)
    }

    @Test func theGlossHasAHardStepAt55Percent() {
        #expect(GlossGradient.alpha(at: 0) == 0.8)
        #expect(abs(GlossGradient.alpha(at: 0.549) - 0.6) < 0.001)
        #expect(GlossGradient.alpha(at: 0.55) == 0)
        #expect(abs(GlossGradient.alpha(at: 0.85) - 0.3) < 1e-6)
        #expect(GlossGradient.alpha(at: 1) == 0.5)
        #expect(GlossGradient.alpha(at: -0.01) == 0 && GlossGradient.alpha(at: 1.01) == 0)
    }

    @Test func blurKeepsTheTotalAndFollowsTheSVGRecipe() {
        #expect(ShadowBlur.boxWindows(sigma: 3).map { [$0.first, $0.last] } == [[-3, 2], [-2, 3], [-3, 3]])
        #expect(ShadowBlur.boxWindows(sigma: 2.5).map { [$0.first, $0.last] } == [[-2, 2], [-2, 2], [-2, 2]])
        var plane = [Float](repeating: 0, count: 41 * 41)
        plane[20 * 41 + 20] = 1
        for sigma in [1.5, 3.0, 4.5] {
            let blurred = ShadowBlur(sigma: sigma).apply(to: plane, width: 41, height: 41)
            #expect(abs(blurred.reduce(0, +) - 1) < 1e-4)
            #expect(blurred[20 * 41 + 20] == blurred.max())
        }
    }
}
