/// Anti-aliased coverage of a shape: for each pixel, the share of its area inside (0...1).
public struct CoverageMask: Equatable, Sendable {
    public let width: Int
    public let height: Int
    /// Row-major, `width · height` values.
    public var values: [Float]

    public init(width: Int, height: Int, values: [Float]) {
        self.width = width
        self.height = height
        self.values = values
    }

    public subscript(x: Int, y: Int) -> Float { values[y * width + x] }
}
