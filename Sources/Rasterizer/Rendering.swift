/// The coverage of a path drawn into the reference cell.
public func renderCoverage(_ path: PathData, fillRule: FillRule, scale: IconScale) -> CoverageMask {
    let size = IconCell.pixelSize(scale: scale)
    var accumulator = CoverageAccumulator(width: size, height: size)
    Flattener().flatten(path.elements, transform: IconCell.transform(scale: scale)) { start, end in
        accumulator.addLine(from: start, to: end)
    }
    return accumulator.coverage(fillRule: fillRule)
}

/// The coverage alone, as a black image whose alpha is the covered area of each pixel.
public func renderMask(_ path: PathData, fillRule: FillRule, scale: IconScale) -> Raster {
    let mask = renderCoverage(path, fillRule: fillRule, scale: scale)
    var raster = Raster(width: mask.width, height: mask.height)
    for (index, value) in mask.values.enumerated() { raster.pixels[index * 4 + 3] = value }
    return raster
}

/// A tab icon in the reference cell: a flat fill of `color` when unselected, the gradient glow in
/// `tint` when selected (GLOW.md).
public func renderIcon(
    _ path: PathData, fillRule: FillRule, state: IconState, scale: IconScale,
    tint: RGBColor = .defaultTint, color: RGBColor = .black
) -> Raster {
    let mask = renderCoverage(path, fillRule: fillRule, scale: scale)
    switch state {
    case .unselected: return GlowComposer.flatFill(mask, color: color)
    case .selected: return GlowComposer(scale: scale).compose(mask, tint: tint)
    }
}
