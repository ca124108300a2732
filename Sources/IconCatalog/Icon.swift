import PathGeometry

/// A vector icon: path data in a `0 0 24 24` viewBox and the fill rule it is drawn with.
public struct Icon: Sendable, Equatable {
    public let name: String
    /// The path data as written, for pages that want to show it.
    public let source: String
    public let path: PathData
    public let fillRule: FillRule

    public init(name: String, source: String, path: PathData, fillRule: FillRule) {
        self.name = name
        self.source = source
        self.path = path
        self.fillRule = fillRule
    }
}
