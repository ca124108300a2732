/// Where sessions live, as chosen with `--sessions memory` or `--sessions sqlite:PATH`.
public enum SessionStoreOption: Sendable, Equatable {
    /// Lost when the server stops; for tests and deterministic snapshots.
    case memory
    /// Kept in the SQLite file at the path, across restarts.
    case sqlite(path: String)

    /// Relative to the working directory; `data/` is ignored by git.
    public static let defaultSQLitePath = "data/sessions.sqlite"

    /// Parses the option's value: `memory`, `sqlite:PATH`, or `sqlite` alone for the default path.
    public static func parse(_ value: String) throws(SessionStoreOptionError) -> SessionStoreOption {
        if value == "memory" { return .memory }
        if value == "sqlite" { return .sqlite(path: defaultSQLitePath) }
        let prefix = "sqlite:"
        guard value.hasPrefix(prefix) else { throw SessionStoreOptionError(value: value) }
        let path = String(value.dropFirst(prefix.count))
        guard !path.isEmpty else { throw SessionStoreOptionError(value: value) }
        return .sqlite(path: path)
    }
}

/// A `--sessions` value that is neither `memory` nor `sqlite[:PATH]`.
public struct SessionStoreOptionError: Error, Equatable, CustomStringConvertible {
    public let value: String

    public var description: String {
        "--sessions expects 'memory', 'sqlite' or 'sqlite:PATH' (default path "
            + "\(SessionStoreOption.defaultSQLitePath)), not '\(value)'"
    }
}
