import Colour
import PNGCodec
import PathGeometry
import Testing

@testable import Rasterizer

/// Our renders against docs/glow.md's references: Skia for the whole picture, exact coverage for masks.
struct GlowReferenceTests {
    static let icons = ["house", "magnifier"]

    static func path(_ icon: String) throws -> (PathData, FillRule) {
        let entry = try Fixtures.iconPathData(icon)
        return (try PathData(parsing: entry.data), FillRule(rawValue: entry.fillRule) ?? .nonZero)
    }

    static func decoded(_ raster: Raster) throws -> DecodedPNG { try DecodedPNG(encodePNG(raster)) }

    static func compareWithSkia(_ raster: Raster, icon: String, state: IconState, scale: IconScale) throws
        -> ImageComparison
    {
        let suffix = "\(scale.rawValue)x.png"
        return ImageComparison(
            reference: try Fixtures.png("skia_\(icon)_\(state.rawValue)@\(suffix)"),
            candidate: try decoded(raster),
            mask: try Fixtures.png("truth_\(icon)_mask@\(suffix)"))
    }

    /// The two pictures Skia drew references of; `tinted` is the unselected fill in the tint (below).
    @Test(arguments: icons, [IconState.selected, .unselected])
    func picturesMatchSkiaAtEveryScale(icon: String, state: IconState) throws {
        let (path, rule) = try Self.path(icon)
        for scale in IconScale.allCases {
            let raster = renderIcon(path, fillRule: rule, state: state, scale: scale)
            let comparison = try Self.compareWithSkia(raster, icon: icon, state: state, scale: scale)
            #expect(comparison.passes(.picture), "\(icon) \(state) @\(scale.rawValue)x: \(comparison)")
        }
    }

    /// A tinted icon is the unselected flat fill drawn in the tint instead of the grey: the same
    /// bytes, so it matches Skia's unselected picture as that does.
    @Test(arguments: icons)
    func theTintedPictureIsTheFlatFillInTheTint(icon: String) throws {
        let (path, rule) = try Self.path(icon)
        let tint = RGBColor(red: 0x34, green: 0xC7, blue: 0x59)
        for scale in IconScale.allCases {
            let tinted = renderIcon(path, fillRule: rule, state: .tinted, scale: scale, tint: tint, color: .black)
            let flat = renderIcon(path, fillRule: rule, state: .unselected, scale: scale, tint: .black, color: tint)
            #expect(encodePNG(tinted) == encodePNG(flat), "\(icon) @\(scale.rawValue)x")
            #expect(
                encodePNG(tinted)
                    != encodePNG(renderIcon(path, fillRule: rule, state: .selected, scale: scale, tint: tint)))
        }
    }

    /// Against an independent 64 × 64-sample coverage (Fixtures/make_supersampled.py), strictly.
    @Test(arguments: icons)
    func masksMatchSupersampledCoverageStrictly(icon: String) throws {
        let (path, rule) = try Self.path(icon)
        for scale in IconScale.allCases {
            let reference = try Fixtures.png("supersampled64_\(icon)_mask@\(scale.rawValue)x.png")
            let ours = try Self.decoded(renderMask(path, fillRule: rule, scale: scale))
            let comparison = ImageComparison(reference: reference, candidate: ours, mask: reference, alphaOnly: true)
            #expect(comparison.passes(.strict), "\(icon) @\(scale.rawValue)x: \(comparison)")
        }
    }

    /// The shipped truth masks sample each pixel on what looks like a 16 × 16 grid: on the
    /// magnifier's 45° handle edge they say 135 where the exact area is 0.549 (140). So the exact
    /// coverage is held to the strict means but to a max of 10 there (measured 4–9).
    @Test(arguments: icons)
    func masksStayCloseToTheShippedTruth(icon: String) throws {
        let (path, rule) = try Self.path(icon)
        for scale in IconScale.allCases {
            let truth = try Fixtures.png("truth_\(icon)_mask@\(scale.rawValue)x.png")
            let ours = try Self.decoded(renderMask(path, fillRule: rule, scale: scale))
            let comparison = ImageComparison(reference: truth, candidate: ours, mask: truth, alphaOnly: true)
            var tolerances = ImageComparison.Tolerances.strict
            tolerances.edgeMax = 10
            tolerances.activeMean = 1.25
            #expect(comparison.passes(tolerances), "\(icon) @\(scale.rawValue)x: \(comparison)")
        }
    }

    @Test(arguments: IconScale.allCases)
    func aBlurOfSigmaBlurOverThreeFailsTheCheck(scale: IconScale) throws {
        let (path, rule) = try Self.path("house")
        var composer = GlowComposer(scale: scale)
        composer.shadowSigma = GlowComposer.shadowBlurInPoints / 3 * Double(scale.rawValue)
        let raster = composer.compose(renderCoverage(path, fillRule: rule, scale: scale), tint: .defaultTint)
        let comparison = try Self.compareWithSkia(raster, icon: "house", state: .selected, scale: scale)
        #expect(!comparison.passes(.picture), "\(comparison)")
    }

    @Test(arguments: IconScale.allCases)
    func aShadowOnePointOffFailsTheCheck(scale: IconScale) throws {
        let (path, rule) = try Self.path("magnifier")
        var composer = GlowComposer(scale: scale)
        composer.shadowOffsetInPixels = 2 * scale.rawValue
        let raster = composer.compose(renderCoverage(path, fillRule: rule, scale: scale), tint: .defaultTint)
        let comparison = try Self.compareWithSkia(raster, icon: "magnifier", state: .selected, scale: scale)
        #expect(!comparison.passes(.picture), "\(comparison)")
    }

    @Test(arguments: IconScale.allCases)
    func theWrongFillRuleFailsBothChecks(scale: IconScale) throws {
        let (path, _) = try Self.path("magnifier")
        let raster = renderIcon(path, fillRule: .nonZero, state: .unselected, scale: scale)
        let picture = try Self.compareWithSkia(raster, icon: "magnifier", state: .unselected, scale: scale)
        #expect(!picture.passes(.picture), "\(picture)")
        let reference = try Fixtures.png("supersampled64_magnifier_mask@\(scale.rawValue)x.png")
        let mask = try Self.decoded(renderMask(path, fillRule: .nonZero, scale: scale))
        let coverage = ImageComparison(reference: reference, candidate: mask, mask: reference, alphaOnly: true)
        #expect(!coverage.passes(.strict), "\(coverage)")
    }

    @Test func theCellIsEightyPointsAtEachScale() throws {
        let (path, rule) = try Self.path("house")
        for scale in IconScale.allCases {
            let raster = renderIcon(path, fillRule: rule, state: .selected, scale: scale)
            #expect(raster.width == 80 * scale.rawValue && raster.height == 80 * scale.rawValue)
        }
    }
}
