import PathGeometry

/// docs/glow.md's reference cell: 80 × 80 pt, the 24 × 24 pt icon box centred and moved 15 pt up.
public enum IconCell {
    public static let sizeInPoints = 80.0
    public static let iconSizeInPoints = 24.0
    public static let upwardShiftInPoints = 15.0
    /// The icon's path data is written in a `0 0 24 24` viewBox.
    public static let viewBoxSize = 24.0

    static var boxLeft: Double { (sizeInPoints - iconSizeInPoints) / 2 }
    static var boxTop: Double { (sizeInPoints - iconSizeInPoints) / 2 - upwardShiftInPoints }

    public static func pixelSize(scale: IconScale) -> Int { Int(sizeInPoints) * scale.rawValue }

    /// From viewBox units to the device pixels of a cell at this scale.
    public static func transform(scale: IconScale) -> AffineTransform {
        let s = Double(scale.rawValue)
        let unit = s * iconSizeInPoints / viewBoxSize
        return .scaleThenTranslate(scale: unit, dx: boxLeft * s, dy: boxTop * s)
    }
}
