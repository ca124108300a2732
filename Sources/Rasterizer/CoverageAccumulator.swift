/// Exact area coverage by signed-area accumulation (the font-rs / stb_truetype v2 method).
///
/// Each line adds, per pixel row it crosses, the signed area it leaves to its right into `deltas`;
/// a running sum along a row then gives the winding-weighted area of each pixel. The row buffer is
/// one cell wider than the image so the carry of the last column has somewhere to go.
struct CoverageAccumulator {
    let width: Int
    let height: Int
    private var deltas: [Float]
    private let stride: Int

    init(width: Int, height: Int) {
        self.width = width
        self.height = height
        self.stride = width + 1
        self.deltas = [Float](repeating: 0, count: (width + 1) * height)
    }

    mutating func addLine(from start: Point, to end: Point) {
        guard start.y != end.y, start.y.isFinite, end.y.isFinite, start.x.isFinite, end.x.isFinite else { return }
        let direction: Double = start.y < end.y ? 1 : -1
        let (top, bottom) = start.y < end.y ? (start, end) : (end, start)
        let firstRow = max(0, Int(top.y.rounded(.down)))
        let endRow = min(height, Int(bottom.y.rounded(.up)))
        guard firstRow < endRow else { return }
        let slope = (bottom.x - top.x) / (bottom.y - top.y)
        for row in firstRow..<endRow {
            let rowTop = max(top.y, Double(row))
            let rowBottom = min(bottom.y, Double(row + 1))
            let xAtTop = top.x + (rowTop - top.y) * slope
            let xAtBottom = top.x + (rowBottom - top.y) * slope
            addRowPiece(row: row, x0: xAtTop, x1: xAtBottom, height: (rowBottom - rowTop) * direction)
        }
    }

    /// One piece of a line inside a single pixel row, `height` signed by its direction.
    private mutating func addRowPiece(row: Int, x0: Double, x1: Double, height rowHeight: Double) {
        let base = row * stride
        let limit = Double(width)
        var left = min(x0, x1)
        var right = max(x0, x1)
        if right - left < 1e-12 {
            let x = min(max(left, 0), limit)
            let column = min(Int(x), width - 1)
            let inside = rowHeight * (1 - (x - Double(column)))
            deltas[base + column] += Float(inside)
            deltas[base + column + 1] += Float(rowHeight - inside)
            return
        }
        let heightPerX = rowHeight / (right - left)
        // Parts left of the image cover every pixel of the row; parts right of it cover none.
        if left < 0 {
            deltas[base] += Float((min(right, 0) - left) * heightPerX)
            left = min(right, 0)
        }
        if right > limit {
            deltas[base + width] += Float((right - max(left, limit)) * heightPerX)
            right = max(left, limit)
        }
        guard left < right else { return }
        var x = left
        var column = min(Int(left), width - 1)
        while true {
            let next = min(right, Double(column + 1))
            let pieceHeight = (next - x) * heightPerX
            let middle = (x + next) / 2 - Double(column)
            let inside = pieceHeight * (1 - middle)
            deltas[base + column] += Float(inside)
            deltas[base + column + 1] += Float(pieceHeight - inside)
            if next >= right || column + 1 >= width { break }
            x = next
            column += 1
        }
    }

    func coverage(fillRule: FillRule) -> CoverageMask {
        var values = [Float](repeating: 0, count: width * height)
        values.withUnsafeMutableBufferPointer { output in
            deltas.withUnsafeBufferPointer { input in
                for row in 0..<height {
                    var winding: Float = 0
                    let inBase = row * stride
                    let outBase = row * width
                    switch fillRule {
                    case .nonZero:
                        for column in 0..<width {
                            winding += input[inBase + column]
                            output[outBase + column] = min(1, abs(winding))
                        }
                    case .evenOdd:
                        for column in 0..<width {
                            winding += input[inBase + column]
                            // A triangle wave: 0 at even windings, 1 at odd ones, linear between.
                            let folded = abs(winding - 2 * Self.roundedHalfAway(winding * 0.5))
                            output[outBase + column] = min(1, folded)
                        }
                    }
                }
            }
        }
        return CoverageMask(width: width, height: height, values: values)
    }

    /// `value.rounded()` (halves away from zero) without a libm call for the small values windings take.
    @inline(__always)
    static func roundedHalfAway(_ value: Float) -> Float {
        guard abs(value) < 1_000_000 else { return value.rounded() }
        let whole = Float(Int32(value))
        let fraction = value - whole
        if fraction >= 0.5 { return whole + 1 }
        if fraction <= -0.5 { return whole - 1 }
        return whole
    }
}
