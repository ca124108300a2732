extension SnapshotRun {
    /// A line for each snapshot that did not simply match (with its diff), the summary line,
    /// and what to do next.
    /// `command` runs the same test again, for the advice.
    public func report(listPath: String, directory: String, command: String, highlight: Bool) -> String {
        var text = ""
        for result in results where result.verdict != .matched {
            let word: String
            switch result.verdict {
            case .matched: continue
            case .failed: word = "FAIL"
            case .updated: word = "UPDATED"
            case .new: word = "NEW"
            case .obsolete(let deleted): word = deleted ? "PRUNED" : "OBSOLETE"
            }
            let place = result.line.map { " (\(listPath):\($0))" } ?? ""
            let files =
                result.line == nil ? ": " + result.files.map { directory + "/" + $0 }.joined(separator: ", ") : ""
            text += "\(word) \(result.name)\(place)\(files): \(result.problem ?? "")\n"
            if let diff = result.diff { text += diff.unified(highlight: highlight) }
        }
        text += summary + "\n"
        let failed = results.contains { $0.fails && ($0.verdict == .failed || $0.verdict == .updated) }
        let obsolete = results.contains { $0.verdict == .obsolete(deleted: false) }
        if failed {
            text += "If the changes are intended, accept them: \(command) --record failed\n"
        }
        if obsolete { text += "Delete the obsolete snapshots: \(command) --prune\n" }
        return text
    }
}
