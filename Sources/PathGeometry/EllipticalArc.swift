import Foundation

/// An SVG arc in endpoint form, converted to cubic Béziers (SVG 1.1 implementation notes F.6).
struct EllipticalArc {
    let start: Point
    let end: Point
    let radiusX: Double
    let radiusY: Double
    let rotationDegrees: Double
    let largeArc: Bool
    let sweep: Bool

    init(
        from start: Point, to end: Point, radiusX: Double, radiusY: Double, rotationDegrees: Double, largeArc: Bool,
        sweep: Bool
    ) {
        self.start = start
        self.end = end
        self.radiusX = abs(radiusX)
        self.radiusY = abs(radiusY)
        self.rotationDegrees = rotationDegrees
        self.largeArc = largeArc
        self.sweep = sweep
    }

    /// Nothing when the endpoints coincide, a line when a radius is zero (F.6.2), otherwise cubics of
    /// at most 90° each, whose error is far below the flattening tolerance.
    func elements() -> [PathElement] {
        if start == end { return [] }
        if radiusX == 0 || radiusY == 0 { return [.line(to: end)] }
        let angle = rotationDegrees * .pi / 180
        let cosAngle = cos(angle)
        let sinAngle = sin(angle)
        let halfDX = (start.x - end.x) / 2
        let halfDY = (start.y - end.y) / 2
        let x1 = cosAngle * halfDX + sinAngle * halfDY
        let y1 = -sinAngle * halfDX + cosAngle * halfDY
        var rx = radiusX
        var ry = radiusY
        // Radii too small for the endpoints are scaled up by √Λ (F.6.6), computed without
        // squaring a radius: a radius below about 1e-154 squares to zero, and the scale to
        // infinity. Λ is only compared with 1, which holds even when √Λ overflows.
        if hypot(x1 / rx, y1 / ry) > 1 {
            rx = hypot(x1, y1 * (radiusX / radiusY))
            ry = hypot(x1 * (radiusY / radiusX), y1)
        }
        let numerator = rx * rx * ry * ry - rx * rx * y1 * y1 - ry * ry * x1 * x1
        let denominator = rx * rx * y1 * y1 + ry * ry * x1 * x1
        var factor = (max(0, numerator / denominator)).squareRoot()
        if largeArc == sweep { factor = -factor }
        let centerX1 = factor * rx * y1 / ry
        let centerY1 = -factor * ry * x1 / rx
        let center = Point(
            x: cosAngle * centerX1 - sinAngle * centerY1 + (start.x + end.x) / 2,
            y: sinAngle * centerX1 + cosAngle * centerY1 + (start.y + end.y) / 2)
        let startAngle = Self.angle(from: (1, 0), to: ((x1 - centerX1) / rx, (y1 - centerY1) / ry))
        var sweepAngle = Self.angle(
            from: ((x1 - centerX1) / rx, (y1 - centerY1) / ry), to: ((-x1 - centerX1) / rx, (-y1 - centerY1) / ry))
        if !sweep && sweepAngle > 0 { sweepAngle -= 2 * .pi }
        if sweep && sweepAngle < 0 { sweepAngle += 2 * .pi }

        let segmentCount = max(1, Int((abs(sweepAngle) / (.pi / 2) - 1e-9).rounded(.up)))
        let step = sweepAngle / Double(segmentCount)
        let handle = 4.0 / 3.0 * tan(step / 4)
        func onEllipse(_ x: Double, _ y: Double) -> Point {
            Point(
                x: center.x + rx * cosAngle * x - ry * sinAngle * y,
                y: center.y + rx * sinAngle * x + ry * cosAngle * y)
        }
        var result: [PathElement] = []
        result.reserveCapacity(segmentCount)
        for index in 0..<segmentCount {
            let from = startAngle + step * Double(index)
            let to = from + step
            let control1 = onEllipse(cos(from) - handle * sin(from), sin(from) + handle * cos(from))
            let control2 = onEllipse(cos(to) + handle * sin(to), sin(to) - handle * cos(to))
            // The last piece ends exactly where the path says, not where trigonometry rounds to.
            let target = index == segmentCount - 1 ? end : onEllipse(cos(to), sin(to))
            result.append(.cubic(control1: control1, control2: control2, to: target))
        }
        return result
    }

    private static func angle(from u: (Double, Double), to v: (Double, Double)) -> Double {
        atan2(u.0 * v.1 - u.1 * v.0, u.0 * v.0 + u.1 * v.1)
    }
}
