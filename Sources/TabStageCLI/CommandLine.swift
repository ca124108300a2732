import Snapshots

/// Where a command writes, and the process's surroundings it reads: passed in so commands can
/// be run and checked in-process by tests.
public struct Console: Sendable {
    public var out: @Sendable (String) -> Void
    public var err: @Sendable (String) -> Void
    /// The environment variables a command may consult (`CI`, `SNAPSHOT_TESTING_RECORD`).
    public var environment: [String: String]
    /// Whether standard output is a terminal, where colour and highlighting help.
    public var outIsTerminal: Bool

    public init(
        out: @escaping @Sendable (String) -> Void, err: @escaping @Sendable (String) -> Void,
        environment: [String: String] = [:], outIsTerminal: Bool = false
    ) {
        self.out = out
        self.err = err
        self.environment = environment
        self.outIsTerminal = outIsTerminal
    }
}

/// Exit codes shared by every subcommand.
public enum ExitCode {
    public static let success: Int32 = 0
    /// The command ran and found a problem (an invalid file, a snapshot mismatch).
    public static let failure: Int32 = 1
    /// The command line itself was wrong: the usage is printed.
    public static let usage: Int32 = 2
}

/// A subcommand of `tabstage`.
public protocol Subcommand: Sendable {
    static var name: String { get }
    static var summary: String { get }
    /// The usage text printed by `--help` and after a usage error.
    static var usage: String { get }
    static var options: [OptionSpec] { get }
    static func run(_ parsed: ParsedArguments, console: Console) -> Int32
}

/// One `--name` option: with a value (`--port 8080` or `--port=8080`) or a flag (`--quiet`).
public struct OptionSpec: Sendable {
    public let name: String
    public let takesValue: Bool
    public init(_ name: String, takesValue: Bool = true) {
        self.name = name
        self.takesValue = takesValue
    }
    public static func flag(_ name: String) -> OptionSpec { OptionSpec(name, takesValue: false) }
}

/// The arguments after the subcommand's name, split into options, flags and positionals.
public struct ParsedArguments: Sendable {
    /// The last value of each option given.
    public private(set) var values: [String: String] = [:]
    /// Every value of each option, in the order given (`--app A --app B`).
    public private(set) var allValues: [String: [String]] = [:]
    public private(set) var flags: Set<String> = []
    public private(set) var positionals: [String] = []

    public init(_ arguments: [String], options: [OptionSpec]) throws(UsageError) {
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            guard argument.hasPrefix("--"), argument.count > 2 else {
                positionals.append(argument)
                continue
            }
            var name = String(argument.dropFirst(2))
            var inlineValue: String?
            if let equals = name.firstIndex(of: "=") {
                inlineValue = String(name[name.index(after: equals)...])
                name = String(name[..<equals])
            }
            guard let spec = options.first(where: { $0.name == name }) else {
                throw UsageError("unknown option --\(name)")
            }
            if !spec.takesValue {
                if inlineValue != nil { throw UsageError("--\(name) takes no value") }
                flags.insert(name)
                continue
            }
            let value: String
            if let inlineValue {
                value = inlineValue
            } else if index < arguments.count {
                value = arguments[index]
                index += 1
            } else {
                throw UsageError("--\(name) needs a value")
            }
            values[name] = value
            allValues[name, default: []].append(value)
        }
    }

    public func value(_ name: String) -> String? { values[name] }
    public func has(_ name: String) -> Bool { flags.contains(name) }

    /// An integer option within a range, or the default when absent.
    public func integer(_ name: String, default fallback: Int, in range: ClosedRange<Int>) throws(UsageError) -> Int {
        guard let text = values[name] else { return fallback }
        guard let number = Int(text), range.contains(number) else {
            throw UsageError(
                "--\(name) must be a whole number from \(range.lowerBound) to \(range.upperBound), not '\(text)'")
        }
        return number
    }

    /// A value that must be one of a fixed set of words.
    public func choice(_ name: String, default fallback: String, among choices: [String]) throws(UsageError) -> String {
        guard let text = values[name] else { return fallback }
        guard choices.contains(text) else {
            throw UsageError("--\(name) must be one of \(choices.joined(separator: ", ")), not '\(text)'")
        }
        return text
    }
}
