/// A point in user units (the icon's 24 × 24 viewBox) or in device pixels, depending on the stage.
public struct Point: Equatable, Sendable {
    public var x: Double
    public var y: Double

    @inlinable
    public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }

    @inlinable
    static func + (lhs: Point, rhs: Point) -> Point { Point(x: lhs.x + rhs.x, y: lhs.y + rhs.y) }
    @inlinable
    static func - (lhs: Point, rhs: Point) -> Point { Point(x: lhs.x - rhs.x, y: lhs.y - rhs.y) }
    @inlinable
    static func * (lhs: Point, factor: Double) -> Point { Point(x: lhs.x * factor, y: lhs.y * factor) }
}

/// One drawing step of a path, in absolute coordinates. Arcs are already cubics: the later stages
/// only ever see lines and Bézier curves.
public enum PathElement: Equatable, Sendable {
    case move(to: Point)
    case line(to: Point)
    case quad(control: Point, to: Point)
    case cubic(control1: Point, control2: Point, to: Point)
    case close
}

/// How overlapping parts of a path decide what is inside.
public enum FillRule: String, Sendable, CaseIterable {
    case nonZero = "nonzero"
    case evenOdd = "evenodd"
}

/// Maps user units to device pixels: `x' = a·x + c·y + tx`, `y' = b·x + d·y + ty`.
public struct AffineTransform: Equatable, Sendable {
    public var a: Double, b: Double, c: Double, d: Double, tx: Double, ty: Double

    public init(a: Double, b: Double, c: Double, d: Double, tx: Double, ty: Double) {
        (self.a, self.b, self.c, self.d, self.tx, self.ty) = (a, b, c, d, tx, ty)
    }

    public static func scaleThenTranslate(scale: Double, dx: Double, dy: Double) -> AffineTransform {
        AffineTransform(a: scale, b: 0, c: 0, d: scale, tx: dx, ty: dy)
    }

    @inlinable
    public func apply(_ point: Point) -> Point {
        Point(x: a * point.x + c * point.y + tx, y: b * point.x + d * point.y + ty)
    }
}
