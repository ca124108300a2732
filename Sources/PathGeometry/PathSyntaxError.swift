/// Why a string is not usable SVG path data, and where (a byte offset into its UTF-8 form).
public struct PathSyntaxError: Error, Equatable, Sendable, CustomStringConvertible {
    public enum Reason: Equatable, Sendable {
        /// Path data must start with `M` or `m` (and may not be empty).
        case expectedMoveTo
        /// Something other than a command letter where a command had to start.
        case expectedCommand(found: Character)
        case expectedNumber
        /// Arc flags are a single `0` or `1`.
        case expectedFlag
        /// A number that is not finite or larger than `PathData.maximumMagnitude`.
        case numberOutOfRange
        case tooLong(limit: Int)
        case tooManyElements(limit: Int)
    }

    public let offset: Int
    public let reason: Reason

    public init(offset: Int, reason: Reason) {
        self.offset = offset
        self.reason = reason
    }

    public var description: String {
        let what: String
        switch reason {
        case .expectedMoveTo: what = "expected a moveto command (M or m) to start the path"
        case .expectedCommand(let found): what = "expected a command letter (MLHVCSQTAZ), found '\(found)'"
        case .expectedNumber: what = "expected a number"
        case .expectedFlag: what = "expected an arc flag (0 or 1)"
        case .numberOutOfRange:
            what = "expected a number of magnitude at most \(Int(PathData.maximumMagnitude))"
        case .tooLong(let limit): what = "path data longer than \(limit) bytes"
        case .tooManyElements(let limit): what = "path with more than \(limit) drawing steps"
        }
        return "bad path data at byte \(offset): \(what)"
    }
}
