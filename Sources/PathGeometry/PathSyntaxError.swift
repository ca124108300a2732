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

    /// The error as a designer reads it, in words and without a byte offset: the command and
    /// the numbers read before the place it stopped (`after 'L 4 5', expected a number`).
    public func explained(in source: String) -> String {
        let before = Array(source.utf8.prefix(offset))
        // The last command letter before the stop (an `e` or `E` is a number's exponent).
        let commands = Set("MmLlHhVvCcSsQqTtAaZz".utf8)
        let start = before.lastIndex { commands.contains($0) } ?? before.startIndex
        let words = String(decoding: before[start...], as: UTF8.self)
            .split { $0 == " " || $0 == "," || $0 == "\n" || $0 == "\t" || $0 == "\r" }
        var read = words.joined(separator: " ")
        // A letter glued to its first number (`L4`) reads as `L 4`.
        if let first = read.first, first.isLetter, read.count > 1, read.dropFirst().first != " " {
            read.insert(" ", at: read.index(after: read.startIndex))
        }
        if read.count > 24 { read = "…" + read.suffix(23) }
        let place = read.isEmpty ? "at the start" : "after '\(read)'"
        return "\(place), \(expectation)"
    }

    /// What the parser wanted where it stopped.
    private var expectation: String {
        switch reason {
        case .expectedMoveTo: "expected a moveto command (M or m) to start the path"
        case .expectedCommand(let found): "expected a command letter (M L H V C S Q T A Z), found '\(found)'"
        case .expectedNumber: "expected a number"
        case .expectedFlag: "expected an arc flag (0 or 1)"
        case .numberOutOfRange: "expected a number of magnitude at most \(Int(PathData.maximumMagnitude))"
        case .tooLong(let limit): "the path data is longer than \(limit) bytes"
        case .tooManyElements(let limit): "the path has more than \(limit) drawing steps"
        }
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
