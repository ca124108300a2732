import PathGeometry

/// Exact area coverage by signed-area accumulation (the font-rs / stb_truetype v2 method).
///
/// Each line adds, per pixel row it crosses, the signed area it leaves to its right into `deltas`;
/// a running sum along a row then gives the winding-weighted area of each pixel. The row buffer is
/// one cell wider than the image so the carry of the last column has somewhere to go.
///
/// The accumulator writes through a raw pointer into the deltas of one
/// `deltas(width:height:fillRule:drawing:)` call, so adding a line costs no uniqueness check or
/// reference counting.
struct CoverageAccumulator {
    let width: Int
    let height: Int
    private let deltas: UnsafeMutablePointer<Float>
    private let stride: Int

    private init(width: Int, height: Int, deltas: UnsafeMutablePointer<Float>) {
        self.width = width
        self.height = height
        self.stride = width + 1
        self.deltas = deltas
    }

    /// The deltas of the lines `body` adds to a `width × height` accumulator.
    static func deltas(
        width: Int, height: Int, fillRule: FillRule, drawing body: (inout CoverageAccumulator) -> Void
    ) -> CoverageDeltas {
        var deltas = [Float](repeating: 0, count: (width + 1) * height)
        deltas.withUnsafeMutableBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return }
            var accumulator = CoverageAccumulator(width: width, height: height, deltas: base)
            body(&accumulator)
        }
        return CoverageDeltas(width: width, height: height, fillRule: fillRule, deltas: deltas)
    }

    mutating func addLine(from start: Point, to end: Point) {
        guard start.y != end.y, start.y.isFinite, end.y.isFinite, start.x.isFinite, end.x.isFinite else { return }
        Self.addLine(from: start, to: end, width: width, height: height, stride: stride, into: deltas)
    }

    /// `addLine` on the raw buffer: no bounds or uniqueness checks per write. Every index written is
    /// `row · stride + column` with row in 0..<height and column in 0...width.
    @inline(__always)
    private static func addLine(
        from start: Point, to end: Point, width: Int, height: Int, stride: Int, into deltas: UnsafeMutablePointer<Float>
    ) {
        let direction: Double = start.y < end.y ? 1 : -1
        let (top, bottom) = start.y < end.y ? (start, end) : (end, start)
        let rows = Double(height)
        // floor(top.y) and ceil(bottom.y), clamped to the rows, without libm calls.
        let firstRow = top.y <= 0 ? 0 : Int(min(top.y, rows))
        let clampedBottom = min(bottom.y, rows)
        guard clampedBottom > 0 else { return }
        let bottomWhole = Int(clampedBottom)
        let endRow = Double(bottomWhole) == clampedBottom ? bottomWhole : bottomWhole + 1
        guard firstRow < endRow else { return }
        let slope = (bottom.x - top.x) / (bottom.y - top.y)
        for row in firstRow..<endRow {
            let rowTop = max(top.y, Double(row))
            let rowBottom = min(bottom.y, Double(row + 1))
            let xAtTop = top.x + (rowTop - top.y) * slope
            let xAtBottom = top.x + (rowBottom - top.y) * slope
            addRowPiece(
                deltas + row * stride, width: width, x0: xAtTop, x1: xAtBottom,
                height: (rowBottom - rowTop) * direction)
        }
    }

    /// One piece of a line inside a single pixel row (`deltas` points at its start), `height` signed
    /// by its direction.
    @inline(__always)
    private static func addRowPiece(
        _ deltas: UnsafeMutablePointer<Float>, width: Int, x0: Double, x1: Double, height rowHeight: Double
    ) {
        let limit = Double(width)
        var left = min(x0, x1)
        var right = max(x0, x1)
        if right - left < 1e-12 {
            let x = min(max(left, 0), limit)
            let column = min(Int(x), width - 1)
            let inside = rowHeight * (1 - (x - Double(column)))
            deltas[column] += Float(inside)
            deltas[column + 1] += Float(rowHeight - inside)
            return
        }
        let heightPerX = rowHeight / (right - left)
        // Parts left of the image cover every pixel of the row; parts right of it cover none.
        if left < 0 {
            deltas[0] += Float((min(right, 0) - left) * heightPerX)
            left = min(right, 0)
        }
        if right > limit {
            deltas[width] += Float((right - max(left, limit)) * heightPerX)
            right = max(left, limit)
        }
        guard left < right else { return }
        var x = left
        var column = min(Int(left), width - 1)
        // What the piece in one column leaves to the next is carried in a register and added there
        // before that column's own share, the order in which two writes would add them.
        var carry: Float = 0
        while true {
            let next = min(right, Double(column + 1))
            let pieceHeight = (next - x) * heightPerX
            let middle = (x + next) / 2 - Double(column)
            let inside = pieceHeight * (1 - middle)
            deltas[column] = deltas[column] + carry + Float(inside)
            carry = Float(pieceHeight - inside)
            if next >= right || column + 1 >= width { break }
            x = next
            column += 1
        }
        deltas[column + 1] += carry
    }
}

/// A path's coverage as the accumulator leaves it: per row, `width + 1` signed-area deltas whose
/// running sum is the winding of each pixel, and the fill rule that turns a winding into coverage.
/// A flat fill keeps its coverage this way: its encoder reads the runs of a row straight off the
/// zero deltas, with no pass over every pixel.
struct CoverageDeltas: Sendable {
    let width: Int
    let height: Int
    let fillRule: FillRule
    /// `height` rows of `width + 1`.
    let deltas: [Float]

    var stride: Int { width + 1 }

    /// The coverage of each pixel, row-major: `width · height` values in 0...1.
    func coverage() -> [Float] {
        let (width, height, stride) = (width, height, stride)
        return [Float](unsafeUninitializedCapacity: width * height) { output, initialized in
            deltas.withUnsafeBufferPointer { input in
                guard let output = output.baseAddress, let input = input.baseAddress else { return }
                switch fillRule {
                case .nonZero:
                    Self.runningSums(input, stride: stride, into: output, width: width, height: height) {
                        min(1, abs($0))
                    }
                case .evenOdd:
                    // The running sums first, then the folding, in a loop that vectorises.
                    Self.runningSums(input, stride: stride, into: output, width: width, height: height) { $0 }
                    for index in 0..<width * height { output[index] = Self.evenOddCoverage(output[index]) }
                }
            }
            initialized = width * height
        }
    }

    /// The runs of `row`, left to right: for each, the running sum of the deltas up to its first
    /// column (the winding of every pixel in it) and its length in columns. A run ends where the
    /// next delta is not zero; two +0.0 deltas are read as one zero word, a -0.0 one alone.
    @inline(__always)
    func forEachRun(inRow row: Int, _ body: (_ winding: Float, _ length: Int) -> Void) {
        precondition(row >= 0 && row < height && deltas.count >= (row + 1) * stride)
        let width = width
        deltas.withUnsafeBufferPointer { buffer in
            guard let rowStart = buffer.baseAddress.map({ $0 + row * stride }) else { return }
            var winding: Float = 0
            var column = 0
            while column < width {
                winding += rowStart[column]
                var next = column + 1
                while width - next >= 2 && UnsafeRawPointer(rowStart + next).loadUnaligned(as: UInt64.self) == 0 {
                    next += 2
                }
                while next < width && rowStart[next] == 0 { next += 1 }
                body(winding, next - column)
                column = next
            }
        }
    }

    /// `coverage()` as a mask.
    var mask: CoverageMask { CoverageMask(width: width, height: height, values: coverage()) }

    /// The coverage of a pixel whose winding (running sum of deltas) is `winding`.
    @inline(__always)
    static func coverage(ofWinding winding: Float, fillRule: FillRule) -> Float {
        switch fillRule {
        case .nonZero: min(1, abs(winding))
        case .evenOdd: evenOddCoverage(winding)
        }
    }

    /// `output[row][column] = value(sum of input[row][0...column])`: the running sum of each row,
    /// four rows at a time, so that four independent additions are in flight instead of one chain.
    @inline(__always)
    private static func runningSums(
        _ input: UnsafePointer<Float>, stride: Int, into output: UnsafeMutablePointer<Float>, width: Int,
        height: Int, _ value: (Float) -> Float
    ) {
        var row = 0
        while row + 4 <= height {
            let sources = (
                input + row * stride, input + (row + 1) * stride, input + (row + 2) * stride,
                input + (row + 3) * stride
            )
            let targets = (
                output + row * width, output + (row + 1) * width, output + (row + 2) * width,
                output + (row + 3) * width
            )
            var sums: (Float, Float, Float, Float) = (0, 0, 0, 0)
            for column in 0..<width {
                sums.0 += sources.0[column]
                sums.1 += sources.1[column]
                sums.2 += sources.2[column]
                sums.3 += sources.3[column]
                targets.0[column] = value(sums.0)
                targets.1[column] = value(sums.1)
                targets.2[column] = value(sums.2)
                targets.3[column] = value(sums.3)
            }
            row += 4
        }
        while row < height {
            let (source, target) = (input + row * stride, output + row * width)
            var sum: Float = 0
            for column in 0..<width {
                sum += source[column]
                target[column] = value(sum)
            }
            row += 1
        }
    }

    /// A triangle wave of the winding: 0 at even windings, 1 at odd ones, linear between; float
    /// arithmetic only (no libm call, branch or checked conversion), so the row loop vectorises.
    /// `folded` is |winding| modulo 2: adding 2²³ to half of it rounds that to an integer, which
    /// gives its floor. Windings beyond 2²² (no real path has them) count as 2²², an even one.
    @inline(__always)
    static func evenOddCoverage(_ winding: Float) -> Float {
        let magic: Float = 8_388_608  // 2²³: from here on a Float's ulp is 1
        let magnitude = min(abs(winding), 4_194_304)
        let half = magnitude * 0.5
        let nearest = (half + magic) - magic
        let folded = magnitude - 2 * (nearest > half ? nearest - 1 : nearest)
        return min(folded, 2 - folded)
    }
}
