/// A unified line diff (longest common subsequence), with a little context around each change.
enum LineDiff {
    static func unified(old: [String], new: [String], context: Int = 2) -> String {
        let script = editScript(old: old, new: new)
        var output: [String] = ["--- expected", "+++ actual"]
        var index = 0
        while index < script.count {
            guard script[index].kind != .same else {
                index += 1
                continue
            }
            var end = index
            // Changes separated by at most 2 × context unchanged lines share one hunk.
            var lookahead = index
            while lookahead < script.count {
                if script[lookahead].kind != .same {
                    end = lookahead
                    lookahead += 1
                } else if lookahead - end <= 2 * context {
                    lookahead += 1
                } else {
                    break
                }
            }
            let start = max(0, index - context)
            let stop = min(script.count - 1, end + context)
            let firstOld = script[start].oldLine
            let firstNew = script[start].newLine
            output.append("@@ -\(firstOld + 1) +\(firstNew + 1) @@")
            for step in script[start...stop] {
                switch step.kind {
                case .same: output.append("  " + step.text)
                case .removed: output.append("− " + step.text)
                case .added: output.append("+ " + step.text)
                }
            }
            index = stop + 1
        }
        return output.joined(separator: "\n") + "\n"
    }

    struct Step: Equatable {
        enum Kind { case same, removed, added }
        var kind: Kind
        var text: String
        /// Lines of each side before this step, for hunk headers.
        var oldLine: Int
        var newLine: Int
    }

    static func editScript(old: [String], new: [String]) -> [Step] {
        // Common prefix and suffix first: typical page changes touch a few lines in the middle,
        // which keeps the quadratic table small.
        var prefix = 0
        while prefix < old.count, prefix < new.count, old[prefix] == new[prefix] { prefix += 1 }
        var suffix = 0
        while suffix < old.count - prefix, suffix < new.count - prefix,
            old[old.count - 1 - suffix] == new[new.count - 1 - suffix]
        {
            suffix += 1
        }
        let oldMiddle = Array(old[prefix..<(old.count - suffix)])
        let newMiddle = Array(new[prefix..<(new.count - suffix)])
        let rows = oldMiddle.count + 1
        let columns = newMiddle.count + 1
        var lengths = [Int](repeating: 0, count: rows * columns)
        for i in stride(from: oldMiddle.count - 1, through: 0, by: -1) {
            for j in stride(from: newMiddle.count - 1, through: 0, by: -1) {
                lengths[i * columns + j] =
                    oldMiddle[i] == newMiddle[j]
                    ? lengths[(i + 1) * columns + j + 1] + 1
                    : max(lengths[(i + 1) * columns + j], lengths[i * columns + j + 1])
            }
        }
        var steps: [Step] = []
        for line in 0..<prefix {
            steps.append(Step(kind: .same, text: old[line], oldLine: line, newLine: line))
        }
        var i = 0
        var j = 0
        while i < oldMiddle.count || j < newMiddle.count {
            let oldLine = prefix + i
            let newLine = prefix + j
            if i < oldMiddle.count, j < newMiddle.count, oldMiddle[i] == newMiddle[j] {
                steps.append(Step(kind: .same, text: oldMiddle[i], oldLine: oldLine, newLine: newLine))
                i += 1
                j += 1
            } else if i < oldMiddle.count,
                j == newMiddle.count || lengths[(i + 1) * columns + j] >= lengths[i * columns + j + 1]
            {
                // Removals before additions, as readers of unified diffs expect.
                steps.append(Step(kind: .removed, text: oldMiddle[i], oldLine: oldLine, newLine: newLine))
                i += 1
            } else {
                steps.append(Step(kind: .added, text: newMiddle[j], oldLine: oldLine, newLine: newLine))
                j += 1
            }
        }
        for offset in 0..<suffix {
            let oldLine = old.count - suffix + offset
            let newLine = new.count - suffix + offset
            steps.append(Step(kind: .same, text: old[oldLine], oldLine: oldLine, newLine: newLine))
        }
        return steps
    }
}
