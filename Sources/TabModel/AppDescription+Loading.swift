extension AppDescription {
    /// The bounds the loader enforces.
    public enum Limits {
        public static let tabCount = 2...12
        public static let idLength = 1...32
        public static let nameLength = 40
        /// Each language is a version of every page, written once when the app loads.
        public static let languageCount = 1...8
        public static let titleLength = 24
        public static let headingLength = 60
        public static let paragraphLength = 400
        public static let paragraphCount = 20
        public static let itemCount = 1...50
        public static let itemTitleLength = 60
        public static let itemDetailLength = 400
        public static let badgeTextLength = 8
        public static let badgeCount = 0...9999
        public static let badgeLabelLength = 24
        public static let pathDataLength = 8192
        public static let counterMaximum = 1...9999
        public static let walletBalance = 0...1_000_000
        public static let walletTopUpCap = 1...100_000
    }

    /// Parses and checks an app description, reporting every problem at once, in reading order,
    /// each with its line and column. `pathDataProblem` says what is wrong with an icon's path
    /// data (nil when it draws); TabModel keeps path data as text and knows no path parser.
    /// `screenFile` reads a screen page's image file, named as the app file names it (relative
    /// to its folder); TabModel reads no files. Without one, a screen's image is missing.
    public static func load(
        json: [UInt8], pathDataProblem: @escaping (String) -> String? = { _ in nil },
        screenFile: @escaping (String) -> Result<ScreenFileInfo, ScreenFileProblem> = { _ in .failure(.missing) }
    ) -> Result<AppDescription, ValidationReport> {
        let document: JSONDocument
        do {
            document = try JSONParser.parseDocument(json)
        } catch {
            let problem = ValidationProblem(
                path: "", message: "not valid JSON: \(error.reason)", position: error.position)
            return .failure(ValidationReport(problems: [problem]))
        }
        var validator = DescriptionValidator(
            document: document, pathDataProblem: pathDataProblem, screenFile: screenFile)
        let app = validator.app(document.value)
        if let app, validator.problems.isEmpty { return .success(app) }
        return .failure(ValidationReport(problems: validator.problemsInReadingOrder))
    }

    /// ``load(json:)`` for text.
    public static func load(
        jsonText: String, pathDataProblem: @escaping (String) -> String? = { _ in nil },
        screenFile: @escaping (String) -> Result<ScreenFileInfo, ScreenFileProblem> = { _ in .failure(.missing) }
    ) -> Result<AppDescription, ValidationReport> {
        load(json: Array(jsonText.utf8), pathDataProblem: pathDataProblem, screenFile: screenFile)
    }
}

extension BuiltInIcon {
    /// The icon whose name is fewest edits (insertions, deletions, substitutions) from `name`;
    /// of equally near ones, the first in `allCases`.
    static func nearest(to name: String) -> BuiltInIcon {
        let typed = Array(name.lowercased())
        var best = BuiltInIcon.allCases[0]
        var bestDistance = Int.max
        for icon in BuiltInIcon.allCases {
            let distance = editDistance(typed, Array(icon.rawValue))
            if distance < bestDistance {
                best = icon
                bestDistance = distance
            }
        }
        return best
    }

    private static func editDistance(_ source: [Character], _ target: [Character]) -> Int {
        var previous = Array(0...target.count)
        for (row, sourceCharacter) in source.enumerated() {
            var current = [row + 1]
            for (column, targetCharacter) in target.enumerated() {
                let substitution = previous[column] + (sourceCharacter == targetCharacter ? 0 : 1)
                current.append(min(substitution, previous[column + 1] + 1, current[column] + 1))
            }
            previous = current
        }
        return previous[target.count]
    }
}

/// The members of one JSON object, after duplicate and unknown keys were reported.
struct Members {
    var path: String
    var values: [String: JSONValue]

    func path(_ key: String) -> String { path.isEmpty ? key : "\(path).\(key)" }
}

/// Walks a parsed description, collecting problems; every function returns nil when it reported one.
/// Its parts stand beside this file, one per section of the app format: the generic JSON shapes
/// (`+LoadingShapes`), the app's own fields (`+LoadingApp`), tabs, icons and badges
/// (`+LoadingTabs`) and pages (`+LoadingPages`).
struct DescriptionValidator {
    private(set) var problems: [ValidationProblem] = []
    let document: JSONDocument
    let pathDataProblem: (String) -> String?
    let screenFile: (String) -> Result<ScreenFileInfo, ScreenFileProblem>
    /// The id string written in each tab, by index, to name tabs in messages.
    let writtenTabIDs: [Int: String]
    /// The languages every text is checked against, once known (see `app(_:)`).
    var textLanguages: LocalizedText.Languages?

    init(
        document: JSONDocument, pathDataProblem: @escaping (String) -> String?,
        screenFile: @escaping (String) -> Result<ScreenFileInfo, ScreenFileProblem>
    ) {
        self.document = document
        self.pathDataProblem = pathDataProblem
        self.screenFile = screenFile
        var ids: [Int: String] = [:]
        if case .object(let members) = document.value,
            case .array(let tabs)? = members.first(where: { $0.key == "tabs" })?.value
        {
            for (index, tab) in tabs.enumerated() {
                if case .object(let fields) = tab,
                    case .string(let id)? = fields.first(where: { $0.key == "id" })?.value
                {
                    ids[index] = id
                }
            }
        }
        writtenTabIDs = ids
    }

    /// The problems sorted by their place in the file; problems at one place keep the order
    /// they were found in.
    var problemsInReadingOrder: [ValidationProblem] {
        problems.enumerated().sorted { left, right in
            let (leftPosition, rightPosition) = (left.element.position, right.element.position)
            if leftPosition != rightPosition, let leftPosition, let rightPosition {
                return leftPosition < rightPosition
            }
            return left.offset < right.offset
        }.map(\.element)
    }

    /// Reports a problem at the value at `path`, its `occurrence`-th when a key is repeated.
    mutating func report(_ path: String, _ message: String, occurrence: Int = 0) {
        problems.append(
            ValidationProblem(
                path: path, message: message,
                position: document.position(of: path, occurrence: occurrence), tabID: tabID(in: path)))
    }

    /// The written id of the tab `path` lies in, when it starts with `tabs[N]`.
    func tabID(in path: String) -> String? {
        guard path.hasPrefix("tabs["), let close = path.firstIndex(of: "]") else { return nil }
        return Int(path[path.index(path.startIndex, offsetBy: 5)..<close]).flatMap { writtenTabIDs[$0] }
    }

    mutating func typeMismatch(_ path: String, expected: String, found value: JSONValue) {
        report(path, "expected \(expected), found \(value.typeName)")
    }
}
