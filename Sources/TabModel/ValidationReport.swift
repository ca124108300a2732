/// One thing wrong with an app description: where (a JSON path such as `tabs[3].icon`) and why.
public struct ValidationProblem: Sendable, Equatable, CustomStringConvertible {
    /// `$` for the document as a whole.
    public var path: String
    public var message: String

    public init(path: String, message: String) {
        self.path = path
        self.message = message
    }

    /// `path: message`.
    public var description: String { "\(path): \(message)" }
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
