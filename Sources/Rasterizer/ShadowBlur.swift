import Foundation

/// The blur of a drop shadow, as docs/glow.md fixes it: a true Gaussian below σ = 2 px, and the SVG
/// filter recipe of three box passes at or above it (which is what the Skia reference does).
/// Pixels outside the image count as transparent.
struct ShadowBlur {
    let sigma: Double

    /// How many pixels a blurred value can travel, in each direction.
    var reach: Int {
        if sigma <= 0 { return 0 }
        if sigma < 2 { return Self.gaussianKernel(sigma: sigma).count / 2 }
        return Self.boxWindows(sigma: sigma).reduce(0) { $0 + max(-$1.first, $1.last) }
    }

    func apply(to plane: [Float], width: Int, height: Int) -> [Float] {
        var horizontal = [Float](repeating: 0, count: plane.count)
        var result = [Float](repeating: 0, count: plane.count)
        plane.withUnsafeBufferPointer { input in
            horizontal.withUnsafeMutableBufferPointer { output in
                passes(input, output, count: width, lines: height, step: 1, lineStride: width)
            }
        }
        horizontal.withUnsafeBufferPointer { input in
            result.withUnsafeMutableBufferPointer { output in
                passes(input, output, count: height, lines: width, step: width, lineStride: 1)
            }
        }
        return result
    }

    /// Blurs every line (a row or a column) of `input` into `output`.
    private func passes(
        _ input: UnsafeBufferPointer<Float>, _ output: UnsafeMutableBufferPointer<Float>,
        count: Int, lines: Int, step: Int, lineStride: Int
    ) {
        if sigma <= 0 {
            for index in 0..<input.count { output[index] = input[index] }
            return
        }
        var line = [Float](repeating: 0, count: count)
        var scratch = [Float](repeating: 0, count: count)
        let kernel = sigma < 2 ? Self.gaussianKernel(sigma: sigma) : nil
        let boxes = Self.boxWindows(sigma: sigma)
        for lineIndex in 0..<lines {
            let base = lineIndex * lineStride
            for index in 0..<count { line[index] = input[base + index * step] }
            if let kernel {
                Self.convolve(line, kernel, into: &scratch)
                swap(&line, &scratch)
            } else {
                for window in boxes {
                    Self.box(line, first: window.first, last: window.last, into: &scratch)
                    swap(&line, &scratch)
                }
            }
            for index in 0..<count { output[base + index * step] = line[index] }
        }
    }

    static func gaussianKernel(sigma: Double) -> [Float] {
        let radius = Int((3 * sigma).rounded(.up))
        var weights = (-radius...radius).map { offset in exp(-Double(offset * offset) / (2 * sigma * sigma)) }
        let total = weights.reduce(0, +)
        weights = weights.map { $0 / total }
        return weights.map { Float($0) }
    }

    /// SVG 1.1 feGaussianBlur: d = ⌊σ·3·√(2π)/4 + ½⌋; odd d gives three centred boxes, even d gives a
    /// box left of centre, one right of it and one of d + 1 centred. Offsets are inclusive bounds.
    static func boxWindows(sigma: Double) -> [(first: Int, last: Int)] {
        let size = Int((sigma * 3 * (2 * Double.pi).squareRoot() / 4 + 0.5).rounded(.down))
        if size <= 1 { return [] }
        if size % 2 == 1 {
            let half = (size - 1) / 2
            return Array(repeating: (-half, half), count: 3)
        }
        let half = size / 2
        return [(-half, half - 1), (-half + 1, half), (-half, half)]
    }

    private static func convolve(_ line: [Float], _ kernel: [Float], into output: inout [Float]) {
        let radius = kernel.count / 2
        let count = line.count
        for index in 0..<count {
            var sum: Float = 0
            let lower = max(0, index - radius)
            let upper = min(count - 1, index + radius)
            if lower <= upper {
                for source in lower...upper { sum += line[source] * kernel[source - index + radius] }
            }
            output[index] = sum
        }
    }

    /// A moving average over `[index + first, index + last]`, by a running sum.
    private static func box(_ line: [Float], first: Int, last: Int, into output: inout [Float]) {
        let count = line.count
        let scale = 1 / Float(last - first + 1)
        var sum: Float = 0
        for source in max(0, first)...max(0, min(count - 1, last)) where source <= last && source >= first {
            sum += line[source]
        }
        for index in 0..<count {
            output[index] = sum * scale
            let leaving = index + first
            let entering = index + last + 1
            if leaving >= 0 && leaving < count { sum -= line[leaving] }
            if entering >= 0 && entering < count { sum += line[entering] }
        }
    }
}
