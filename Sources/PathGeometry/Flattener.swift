/// Turns a path in device pixels into line segments, curves subdivided uniformly by Wang's formula
/// so that no piece strays more than `tolerance` pixels from the true curve. Inlinable, so that a
/// caller's `emit` is inlined into the loops as if it were written there.
public struct Flattener {
    /// docs/glow.md: 0.01–0.02 px keeps the coverage within about 2/255 of the exact area.
    public static let defaultTolerance = 0.01
    /// Bounds the work for absurd curves; real icon curves need well under a hundred pieces.
    @usableFromInline static let maximumPiecesPerCurve = 512

    public let tolerance: Double

    public init(tolerance: Double = Flattener.defaultTolerance) {
        self.tolerance = tolerance
    }

    /// Calls `emit` with each line segment; every subpath is closed, as filling requires.
    @inlinable
    public func flatten(_ elements: [PathElement], transform: AffineTransform, emit: (Point, Point) -> Void) {
        var current = Point(x: 0, y: 0)
        var subpathStart = current
        for element in elements {
            switch element {
            case .move(let to):
                if current != subpathStart { emit(current, subpathStart) }
                current = transform.apply(to)
                subpathStart = current
            case .line(let to):
                let end = transform.apply(to)
                emit(current, end)
                current = end
            case .quad(let control, let to):
                let control = transform.apply(control)
                let end = transform.apply(to)
                flattenQuad(current, control, end, emit: emit)
                current = end
            case .cubic(let control1, let control2, let to):
                let control1 = transform.apply(control1)
                let control2 = transform.apply(control2)
                let end = transform.apply(to)
                flattenCubic(current, control1, control2, end, emit: emit)
                current = end
            case .close:
                if current != subpathStart { emit(current, subpathStart) }
                current = subpathStart
            }
        }
        if current != subpathStart { emit(current, subpathStart) }
    }

    @inlinable
    func pieceCount(degreeFactor: Double, secondDifference: Double) -> Int {
        // Wang: n = ceil(sqrt(d(d-1)/8 · max|P[i] - 2P[i+1] + P[i+2]| / tolerance)).
        let count = (degreeFactor * secondDifference / tolerance).squareRoot().rounded(.up)
        guard count.isFinite else { return Self.maximumPiecesPerCurve }
        return min(Self.maximumPiecesPerCurve, max(1, Int(count)))
    }

    @inlinable
    static func length(_ p: Point) -> Double { (p.x * p.x + p.y * p.y).squareRoot() }

    @inlinable
    func flattenQuad(_ p0: Point, _ p1: Point, _ p2: Point, emit: (Point, Point) -> Void) {
        let second = Self.length(p0 - p1 * 2 + p2)
        let count = pieceCount(degreeFactor: 0.25, secondDifference: second)
        var previous = p0
        let step = 1 / Double(count)
        for index in 1..<count {
            let t = Double(index) * step
            let u = 1 - t
            let point = Point(
                x: u * u * p0.x + 2 * u * t * p1.x + t * t * p2.x,
                y: u * u * p0.y + 2 * u * t * p1.y + t * t * p2.y)
            emit(previous, point)
            previous = point
        }
        emit(previous, p2)
    }

    @inlinable
    func flattenCubic(_ p0: Point, _ p1: Point, _ p2: Point, _ p3: Point, emit: (Point, Point) -> Void) {
        let second = max(Self.length(p0 - p1 * 2 + p2), Self.length(p1 - p2 * 2 + p3))
        let count = pieceCount(degreeFactor: 0.75, secondDifference: second)
        var previous = p0
        let step = 1 / Double(count)
        for index in 1..<count {
            let t = Double(index) * step
            let u = 1 - t
            let a = u * u * u
            let b = 3 * u * u * t
            let c = 3 * u * t * t
            let d = t * t * t
            let point = Point(
                x: a * p0.x + b * p1.x + c * p2.x + d * p3.x, y: a * p0.y + b * p1.y + c * p2.y + d * p3.y)
            emit(previous, point)
            previous = point
        }
        emit(previous, p3)
    }
}
