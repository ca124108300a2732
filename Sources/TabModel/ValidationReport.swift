/// One thing wrong with an app description: where (a JSON path such as `tabs[3].icon`, and its
/// line and column in the file) and why.
public struct ValidationProblem: Sendable, Equatable, CustomStringConvertible {
    /// Empty for the file as a whole, which the description then does not name.
    public var path: String
    public var message: String
    /// The start of the value at `path` in the file, or of the object that lacks it.
    public var position: SourcePosition?
    /// The id written in the tab the path lies in (`tabs[4]`), so a message can name the tab.
    public var tabID: String?

    public init(path: String, message: String, position: SourcePosition? = nil, tabID: String? = nil) {
        self.path = path
        self.message = message
        self.position = position
        self.tabID = tabID
    }

    /// The path with the tab named after its index: `tabs[4] 'savings'.title`.
    public var subject: String {
        guard let tabID, path.hasPrefix("tabs["), let close = path.firstIndex(of: "]") else { return path }
        let after = path.index(after: close)
        return path[..<after] + " '" + tabID + "'" + path[after...]
    }

    /// `41:17: tabs[4] 'savings'.title: missing 'zh-Hant'` (the position when known), to follow
    /// a file name and a colon.
    public var description: String {
        let said = path.isEmpty ? message : "\(subject): \(message)"
        if let position { return "\(position): \(said)" }
        return said
    }

    /// The line a command prints for `file`: `bank.json:41:17: tabs[4] 'savings'.title: ...`.
    public func line(in file: String) -> String {
        position == nil ? "\(file): \(description)" : "\(file):\(description)"
    }
}

/// Every problem of an app description, in reading order.
public struct ValidationReport: Error, Sendable, Equatable, CustomStringConvertible {
    public var problems: [ValidationProblem]

    public init(problems: [ValidationProblem]) {
        self.problems = problems
    }

    /// One problem per line.
    public var description: String { problems.map(\.description).joined(separator: "\n") }
}
