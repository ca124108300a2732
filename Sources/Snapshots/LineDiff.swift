/// The difference between two texts, line by line, written as a standard unified diff
/// (`--- expected`, `+++ actual`, `@@ -a,b +c,d @@` hunks, ASCII ` `/`-`/`+` prefixes) that
/// `patch`, `git apply` and CI annotators read, from the longest common subsequence of lines.
///
/// A line keeps its terminating newline when comparing, so a text that lost its last newline
/// differs in that line, and the diff says `\ No newline at end of file` as `diff -u` does.
struct LineDiff: Sendable {
    /// One line of either side, in the edit script's order.
    struct Step: Equatable, Sendable {
        enum Kind: Sendable { case same, removed, added }
        var kind: Kind
        /// The line without its newline.
        var text: String
        var isTerminated: Bool
        /// How many lines of each side come before this step.
        var oldLine: Int
        var newLine: Int
    }

    let steps: [Step]

    /// Texts this long on both sides (in lines that differ, after the common ends) are compared
    /// as one block removed and one added, which keeps the quadratic table within a few MB.
    static let largestComparedArea = 4_000_000

    init(expected: String, actual: String) {
        let old = Self.lines(of: expected)
        let new = Self.lines(of: actual)
        let script = EditScript(old: old.map(\.key), new: new.map(\.key), largestArea: Self.largestComparedArea)
        steps = script.edits.map { edit in
            let line = edit.kind == .added ? new[edit.newIndex] : old[edit.oldIndex]
            return Step(
                kind: edit.kind, text: line.text, isTerminated: line.isTerminated, oldLine: edit.oldIndex,
                newLine: edit.newIndex)
        }
    }

    var isEmpty: Bool { !steps.contains { $0.kind != .same } }

    /// The diff as `diff -u` writes it, with `context` unchanged lines around each change;
    /// `highlight` colours it and marks the changed words of a changed line (for a terminal).
    func unified(context: Int = 3, highlight: Bool = false) -> String {
        var output = highlight ? Style.bold + "--- expected\n+++ actual\n" + Style.reset : "--- expected\n+++ actual\n"
        for hunk in hunks(context: context) {
            let header =
                "@@ -\(Self.range(start: hunk.oldStart, count: hunk.oldCount)) "
                + "+\(Self.range(start: hunk.newStart, count: hunk.newCount)) @@"
            output += highlight ? Style.cyan + header + Style.reset + "\n" : header + "\n"
            let lines = Array(steps[hunk.steps])
            var index = 0
            while index < lines.count {
                guard lines[index].kind != .same else {
                    output += Self.written(lines[index], prefix: " ", words: nil, highlight: false)
                    index += 1
                    continue
                }
                // A block of removed lines and the added lines after it: the i-th of each are
                // taken as one line changed, whose changed words a terminal shows.
                var removedEnd = index
                while removedEnd < lines.count, lines[removedEnd].kind == .removed { removedEnd += 1 }
                var addedEnd = removedEnd
                while addedEnd < lines.count, lines[addedEnd].kind == .added { addedEnd += 1 }
                let removed = lines[index..<removedEnd]
                let added = lines[removedEnd..<addedEnd]
                for (offset, line) in removed.enumerated() {
                    let partner = highlight && offset < added.count ? added[added.startIndex + offset].text : nil
                    let words = partner.map { WordDiff(old: line.text, new: $0).oldMarks }
                    output += Self.written(line, prefix: "-", words: words, highlight: highlight)
                }
                for (offset, line) in added.enumerated() {
                    let partner = highlight && offset < removed.count ? removed[removed.startIndex + offset].text : nil
                    let words = partner.map { WordDiff(old: $0, new: line.text).newMarks }
                    output += Self.written(line, prefix: "+", words: words, highlight: highlight)
                }
                index = addedEnd
            }
        }
        return output
    }

    /// A run of steps around changes, with the first line and the count of each side.
    struct Hunk: Equatable {
        var steps: Range<Int>
        var oldStart: Int
        var oldCount: Int
        var newStart: Int
        var newCount: Int
    }

    /// Changes closer than twice the context share a hunk, as in `diff -u`.
    func hunks(context: Int) -> [Hunk] {
        let changed = steps.indices.filter { steps[$0].kind != .same }
        guard let first = changed.first else { return [] }
        var groups: [ClosedRange<Int>] = []
        var start = first
        var end = first
        for index in changed.dropFirst() {
            if index - end - 1 > 2 * context {
                groups.append(start...end)
                start = index
            }
            end = index
        }
        groups.append(start...end)
        return groups.map { group in
            let range = max(0, group.lowerBound - context)..<min(steps.count, group.upperBound + context + 1)
            let slice = steps[range]
            let oldCount = slice.filter { $0.kind != .added }.count
            let newCount = slice.filter { $0.kind != .removed }.count
            let firstStep = steps[range.lowerBound]
            return Hunk(
                steps: range, oldStart: firstStep.oldLine + (oldCount > 0 ? 1 : 0), oldCount: oldCount,
                newStart: firstStep.newLine + (newCount > 0 ? 1 : 0), newCount: newCount)
        }
    }

    private static func range(start: Int, count: Int) -> String { "\(start),\(count)" }

    private static func written(_ step: Step, prefix: String, words: [Bool]?, highlight: Bool) -> String {
        var line: String
        if highlight {
            let colour = prefix == "-" ? Style.red : prefix == "+" ? Style.green : ""
            line = colour + prefix + (words.map { WordDiff.marked(step.text, marks: $0) } ?? step.text) + Style.reset
        } else {
            line = prefix + step.text
        }
        line += "\n"
        if !step.isTerminated { line += "\\ No newline at end of file\n" }
        return line
    }

    /// ANSI escapes for a terminal.
    enum Style {
        static let reset = "\u{1B}[0m"
        static let bold = "\u{1B}[1m"
        static let red = "\u{1B}[31m"
        static let green = "\u{1B}[32m"
        static let cyan = "\u{1B}[36m"
        static let reverse = "\u{1B}[7m"
        static let noReverse = "\u{1B}[27m"
    }

    /// One line of a text, and whether a newline ended it (the last line of a text may lack one).
    struct Line {
        var text: String
        var isTerminated: Bool
        var key: String { isTerminated ? text + "\n" : text }
    }

    static func lines(of text: String) -> [Line] {
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map {
            Line(text: String($0), isTerminated: true)
        }
        // "a\nb\n" splits into a, b and an empty remainder that is no line at all.
        if let last = lines.last, last.text.isEmpty {
            lines.removeLast()
        } else if !lines.isEmpty {
            lines[lines.count - 1].isTerminated = false
        }
        return lines
    }
}

/// The changed words of one line against another: words are runs of letters and digits, and
/// every other character is a word of its own.
struct WordDiff {
    /// For each character of the old and the new line, whether it is part of a changed word.
    let oldMarks: [Bool]
    let newMarks: [Bool]

    init(old: String, new: String) {
        let oldWords = Self.words(old)
        let newWords = Self.words(new)
        let script = EditScript(old: oldWords, new: newWords, largestArea: 250_000)
        var oldMarks: [Bool] = []
        var newMarks: [Bool] = []
        for edit in script.edits {
            switch edit.kind {
            case .same:
                oldMarks += Array(repeating: false, count: oldWords[edit.oldIndex].count)
                newMarks += Array(repeating: false, count: newWords[edit.newIndex].count)
            case .removed: oldMarks += Array(repeating: true, count: oldWords[edit.oldIndex].count)
            case .added: newMarks += Array(repeating: true, count: newWords[edit.newIndex].count)
            }
        }
        self.oldMarks = oldMarks
        self.newMarks = newMarks
    }

    static func words(_ line: String) -> [String] {
        var words: [String] = []
        var current = ""
        for character in line {
            if character.isLetter || character.isNumber {
                current.append(character)
            } else {
                if !current.isEmpty { words.append(current) }
                current = ""
                words.append(String(character))
            }
        }
        if !current.isEmpty { words.append(current) }
        return words
    }

    /// `line` with its marked characters in reverse video.
    static func marked(_ line: String, marks: [Bool]) -> String {
        var output = ""
        var inside = false
        for (character, isMarked) in zip(line, marks) {
            if isMarked != inside {
                output += isMarked ? LineDiff.Style.reverse : LineDiff.Style.noReverse
                inside = isMarked
            }
            output.append(character)
        }
        if inside { output += LineDiff.Style.noReverse }
        return output
    }
}

/// The shortest edit from one sequence to another (longest common subsequence), removals of a
/// change before its additions, as readers of unified diffs expect.
struct EditScript<Element: Equatable> {
    struct Edit: Equatable {
        var kind: LineDiff.Step.Kind
        /// For `.same` and `.removed`, the element of `old`; otherwise the number of `old`
        /// elements before the edit (and the same for `new`).
        var oldIndex: Int
        var newIndex: Int
    }

    let edits: [Edit]

    /// `largestArea` bounds the table over the parts that differ: past it, they are one
    /// block removed and one added.
    init(old: [Element], new: [Element], largestArea: Int) {
        // Common ends first: a typical change touches a few lines in the middle, which keeps
        // the quadratic table small.
        var prefix = 0
        while prefix < old.count, prefix < new.count, old[prefix] == new[prefix] { prefix += 1 }
        var suffix = 0
        while suffix < old.count - prefix, suffix < new.count - prefix,
            old[old.count - 1 - suffix] == new[new.count - 1 - suffix]
        {
            suffix += 1
        }
        let oldMiddle = old.count - prefix - suffix
        let newMiddle = new.count - prefix - suffix
        var edits: [Edit] = (0..<prefix).map { Edit(kind: .same, oldIndex: $0, newIndex: $0) }
        let columns = newMiddle + 1
        if oldMiddle * newMiddle > largestArea {
            edits += (0..<oldMiddle).map { Edit(kind: .removed, oldIndex: prefix + $0, newIndex: prefix) }
            edits += (0..<newMiddle).map { Edit(kind: .added, oldIndex: prefix + oldMiddle, newIndex: prefix + $0) }
        } else {
            // lengths[i * columns + j]: the longest common subsequence of old[i...] and new[j...].
            var lengths = [Int](repeating: 0, count: (oldMiddle + 1) * columns)
            for i in stride(from: oldMiddle - 1, through: 0, by: -1) {
                for j in stride(from: newMiddle - 1, through: 0, by: -1) {
                    lengths[i * columns + j] =
                        old[prefix + i] == new[prefix + j]
                        ? lengths[(i + 1) * columns + j + 1] + 1
                        : max(lengths[(i + 1) * columns + j], lengths[i * columns + j + 1])
                }
            }
            var i = 0
            var j = 0
            while i < oldMiddle || j < newMiddle {
                if i < oldMiddle, j < newMiddle, old[prefix + i] == new[prefix + j] {
                    edits.append(Edit(kind: .same, oldIndex: prefix + i, newIndex: prefix + j))
                    i += 1
                    j += 1
                } else if i < oldMiddle,
                    j == newMiddle || lengths[(i + 1) * columns + j] >= lengths[i * columns + j + 1]
                {
                    edits.append(Edit(kind: .removed, oldIndex: prefix + i, newIndex: prefix + j))
                    i += 1
                } else {
                    edits.append(Edit(kind: .added, oldIndex: prefix + i, newIndex: prefix + j))
                    j += 1
                }
            }
        }
        let oldSuffixStart = old.count - suffix
        let newSuffixStart = new.count - suffix
        edits += (0..<suffix).map { Edit(kind: .same, oldIndex: oldSuffixStart + $0, newIndex: newSuffixStart + $0) }
        self.edits = edits
    }
}
