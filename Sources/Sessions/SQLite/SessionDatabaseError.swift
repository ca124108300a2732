import CSQLite

/// The session database cannot be used, found when the server starts: what is wrong, where, and
/// what to do. The file is left exactly as it was found; TabStage never replaces or deletes it.
public struct SessionDatabaseError: Error, Equatable, CustomStringConvertible {
    public enum Problem: Sendable, Equatable {
        /// The path names a directory.
        case isDirectory
        /// The folder that should hold the file could not be made.
        case cannotCreateFolder(reason: String)
        /// SQLite could not open the file (permissions, a missing folder, ...).
        case cannotOpen(reason: String)
        /// The file can be read but not written.
        case readOnly
        /// The file's bytes are not a SQLite database.
        case notADatabase(reason: String)
        /// A SQLite database that could not be read (damaged pages, an I/O error).
        case unreadable(reason: String)
        /// A SQLite database of something else.
        case foreignSchema(tables: [String])
        /// Written by a later TabStage whose schema this build does not know.
        case newerSchema(version: Int64)
        /// Marked as TabStage's, but its tables are not what TabStage writes.
        case damagedSchema(reason: String)
        /// Could not be switched to write-ahead logging, or prepared for use.
        case cannotPrepare(reason: String)
    }

    public let path: String
    public let problem: Problem
    /// SQLite answered "busy" or "locked": another connection held the file for a moment (a second
    /// server opening the same new file at the same instant), so opening again may succeed.
    let isBusy: Bool

    public init(path: String, problem: Problem) {
        self.init(path: path, problem: problem, isBusy: false)
    }

    init(path: String, problem: Problem, isBusy: Bool) {
        self.path = path
        self.problem = problem
        self.isBusy = isBusy
    }

    /// The failure `problem` caused by SQLite's `error`, marked busy when it was.
    init(path: String, problem: Problem, cause error: SQLiteError) {
        self.init(path: path, problem: problem, isBusy: error.code == SQLITE_BUSY || error.code == SQLITE_LOCKED)
    }

    public var description: String {
        let subject = "the session database at \(path)"
        let fallBack = "or pass --sessions memory"
        switch problem {
        case .isDirectory:
            return "\(subject) is a directory, not a file. Pass a file path with --sessions sqlite:PATH \(fallBack)"
        case .cannotCreateFolder(let reason):
            return "cannot create the folder for \(subject) (\(reason)). Create it by hand \(fallBack)"
        case .cannotOpen(let reason):
            return "cannot open \(subject) (\(reason)). Check the path and its permissions \(fallBack)"
        case .readOnly:
            return "\(subject) is read-only (no write permission on the file or its folder). "
                + "Fix the permissions \(fallBack)"
        case .notADatabase(let reason):
            return "\(subject) is not a SQLite database (\(reason)). Move it aside \(fallBack)"
        case .unreadable(let reason):
            return "\(subject) cannot be read (\(reason)). Move it aside \(fallBack)"
        case .foreignSchema(let tables):
            let listed = tables.isEmpty ? "no TabStage marker" : "tables: " + tables.joined(separator: ", ")
            return "\(subject) belongs to something else (\(listed)), not to TabStage. "
                + "Pass another path with --sessions sqlite:PATH \(fallBack)"
        case .newerSchema(let version):
            return "\(subject) has schema version \(version), newer than this TabStage knows "
                + "(\(SQLiteSessionSchema.version)). Run a newer TabStage, move the file aside \(fallBack)"
        case .damagedSchema(let reason):
            return "\(subject) is marked as TabStage's but its schema is damaged (\(reason)). "
                + "Move it aside \(fallBack)"
        case .cannotPrepare(let reason):
            return "cannot prepare \(subject) for use (\(reason)). Check the disk and its permissions \(fallBack)"
        }
    }
}
