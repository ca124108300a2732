/// Parsed SVG path data (the `d` attribute), in absolute user units.
///
/// Parsing is all or nothing: a malformed string is a `PathSyntaxError` naming the byte offset,
/// never a partially drawn icon (SVG renderers draw up to the error; an icon server should not).
public struct PathData: Equatable, Sendable {
    /// Longer input is rejected before parsing, so a hostile request cannot make us work for long.
    public static let maximumLength = 32_768
    /// Each element costs a bounded amount of flattening; this bounds the whole render.
    public static let maximumElements = 8_192
    /// Coordinates beyond this are surely a mistake for a 24-unit icon.
    public static let maximumMagnitude = 1_000_000.0

    public let elements: [PathElement]

    public init(elements: [PathElement]) {
        self.elements = elements
    }

    public init(parsing text: String) throws(PathSyntaxError) {
        var parser = PathParser(bytes: Array(text.utf8))
        self.elements = try parser.parse()
    }
}
