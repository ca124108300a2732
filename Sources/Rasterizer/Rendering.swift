// The rasterizer's pipeline, one stage a file:
//   path      PathData (PathGeometry) in the 24-unit viewBox, placed in the cell by `IconCell`,
//             flattened to line segments in device pixels (`Flattener`);
//   coverage  each segment's signed area accumulated per row (`CoverageAccumulator`), whose running
//             sums under the fill rule are each pixel's covered share (`CoverageDeltas`);
//   glow      for the selected state, tint, gloss and blurred shadow over the coverage
//             (`GlowComposer`, `ShadowBlur`), per docs/glow.md;
//   pixels    a `Raster`: premultiplied floats, or for a flat fill one colour and the coverage;
//   PNG       the raster's PNG form (`Raster+PNG.swift`), written by PNGCodec.
// Only the pixels a path's control points can reach are computed (`pathBox`).

import Colour
import PathGeometry

/// The coverage of a path drawn into the reference cell.
public func renderCoverage(_ path: PathData, fillRule: FillRule, scale: IconScale) -> CoverageMask {
    let size = IconCell.pixelSize(scale: scale)
    let (box, local) = coverageInBox(path, fillRule: fillRule, scale: scale)
    var values = [Float](repeating: 0, count: size * size)
    for row in 0..<max(0, box.height) {
        for column in 0..<box.width {
            values[(box.y + row) * size + box.x + column] = local.values[row * box.width + column]
        }
    }
    return CoverageMask(width: size, height: size, values: values)
}

/// The coverage alone, as a black image whose alpha is the covered area of each pixel.
public func renderMask(_ path: PathData, fillRule: FillRule, scale: IconScale) -> Raster {
    let size = IconCell.pixelSize(scale: scale)
    let (box, deltas) = deltasInBox(path, fillRule: fillRule, scale: scale)
    return Raster(width: size, height: size, storage: .flat(box, .black, deltas))
}

/// A tab icon in the reference cell: a flat fill of `color` when unselected, the gradient glow in
/// `tint` when selected (docs/glow.md), a flat fill of `tint` when tinted.
public func renderIcon(
    _ path: PathData, fillRule: FillRule, state: IconState, scale: IconScale,
    tint: RGBColor = .defaultTint, color: RGBColor = .black
) -> Raster {
    let size = IconCell.pixelSize(scale: scale)
    switch state {
    case .unselected, .tinted:
        let (box, deltas) = deltasInBox(path, fillRule: fillRule, scale: scale)
        return Raster(width: size, height: size, storage: .flat(box, state == .tinted ? tint : color, deltas))
    case .selected:
        let composer = GlowComposer(scale: scale)
        let margin = composer.shadowMargin
        let (box, mask) = coverageInBox(path, fillRule: fillRule, scale: scale, margin: margin)
        return composer.compose(mask, in: box, imageWidth: size, imageHeight: size, tint: tint)
    }
}

/// Pixels a picture may reach beyond its path's bounds: left, top, right, bottom.
struct BoxMargin: Equatable {
    var left = 0
    var top = 0
    var right = 0
    var bottom = 0
}

/// The coverage of the path, computed only over the pixels its control points can reach (a Bézier
/// curve stays inside their hull), grown by `margin` and clipped to the cell. Every pixel outside the
/// box has no coverage. The mask is `box.width × box.height`.
func coverageInBox(_ path: PathData, fillRule: FillRule, scale: IconScale, margin: BoxMargin = BoxMargin())
    -> (PixelBox, CoverageMask)
{
    let (box, deltas) = deltasInBox(path, fillRule: fillRule, scale: scale, margin: margin)
    return (box, deltas.mask)
}

/// `coverageInBox` as the accumulator leaves it, before the running sums.
func deltasInBox(_ path: PathData, fillRule: FillRule, scale: IconScale, margin: BoxMargin = BoxMargin())
    -> (PixelBox, CoverageDeltas)
{
    let size = IconCell.pixelSize(scale: scale)
    let transform = IconCell.transform(scale: scale)
    let box = pathBox(path.elements, transform: transform, size: size, margin: margin)
    guard !box.isEmpty else {
        return (.empty, CoverageDeltas(width: 0, height: 0, fillRule: fillRule, deltas: []))
    }
    let shiftX = Double(box.x)
    let shiftY = Double(box.y)
    let deltas = CoverageAccumulator.deltas(width: box.width, height: box.height, fillRule: fillRule) { accumulator in
        Flattener().flatten(path.elements, transform: transform) { start, end in
            accumulator.addLine(
                from: Point(x: start.x - shiftX, y: start.y - shiftY), to: Point(x: end.x - shiftX, y: end.y - shiftY))
        }
    }
    return (box, deltas)
}

/// The pixel box holding every transformed point of the path, grown by `margin`, clipped to the
/// `size × size` cell; the whole cell when a coordinate is not finite.
func pathBox(_ elements: [PathElement], transform: AffineTransform, size: Int, margin: BoxMargin) -> PixelBox {
    var minX = Double.infinity
    var minY = Double.infinity
    var maxX = -Double.infinity
    var maxY = -Double.infinity
    func include(_ point: Point) {
        let device = transform.apply(point)
        minX = min(minX, device.x)
        minY = min(minY, device.y)
        maxX = max(maxX, device.x)
        maxY = max(maxY, device.y)
    }
    for element in elements {
        switch element {
        case .move(let to), .line(let to): include(to)
        case .quad(let control, let to):
            include(control)
            include(to)
        case .cubic(let control1, let control2, let to):
            include(control1)
            include(control2)
            include(to)
        case .close: break
        }
    }
    // The flattener starts a path that does not open with a move at the device origin.
    if let first = elements.first, case .move = first {
    } else {
        (minX, minY, maxX, maxY) = (min(minX, 0), min(minY, 0), max(maxX, 0), max(maxY, 0))
    }
    guard minX.isFinite, minY.isFinite, maxX.isFinite, maxY.isFinite else {
        return PixelBox(x: 0, y: 0, width: size, height: size)
    }
    let limit = Double(size)
    // One spare pixel each side: a point on a pixel boundary still lands inside the box.
    let left = Int(min(limit, max(0, minX.rounded(.down) - 1 - Double(margin.left))))
    let top = Int(min(limit, max(0, minY.rounded(.down) - 1 - Double(margin.top))))
    let right = Int(min(limit, max(0, maxX.rounded(.up) + 1 + Double(margin.right))))
    let bottom = Int(min(limit, max(0, maxY.rounded(.up) + 1 + Double(margin.bottom))))
    guard left < right, top < bottom else { return .empty }
    return PixelBox(x: left, y: top, width: right - left, height: bottom - top)
}
