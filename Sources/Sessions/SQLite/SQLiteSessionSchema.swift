import CSQLite
import Foundation

/// The layout of a TabStage session database, and the checks that tell ours from anything else
/// before a single byte of the file is written.
enum SQLiteSessionSchema {
    /// `PRAGMA application_id`: SQLite's own slot for naming the program a file belongs to
    /// ("TbSt"), so a database of another program is never mistaken for an empty one of ours.
    static let applicationID: Int64 = 0x5462_5374
    /// `PRAGMA user_version`: raised whenever the tables below change.
    /// Version 1 had no `aliases`; it is given the table when opened.
    static let version: Int64 = 2

    /// Ids are 16 bytes (high then low, big-endian); `last_used` is seconds, the stores' `now`.
    /// No index on `last_used`: recency lives in memory while serving and is read once at start.
    /// An alias (a presenter's follow code, UTF-8) names a session id; it is kept in the file
    /// like the sessions, so a presentation outlives a restart of its server.
    static let creation = """
        CREATE TABLE sessions (
            id BLOB PRIMARY KEY NOT NULL CHECK (length(id) = 16),
            state BLOB NOT NULL,
            last_used REAL NOT NULL
        );
        \(aliasesCreation)
        PRAGMA application_id = \(applicationID);
        PRAGMA user_version = \(version);
        """

    static let aliasesCreation = """
        CREATE TABLE aliases (
            alias BLOB PRIMARY KEY NOT NULL,
            session BLOB NOT NULL CHECK (length(session) = 16),
            last_used REAL NOT NULL
        );
        """

    static let expectedColumns = ["id", "state", "last_used"]
    static let expectedAliasColumns = ["alias", "session", "last_used"]

    /// Opens the file at `path`, creating it (and its folder) when missing, and checks that it is
    /// a TabStage session database or an empty one, which then gets the tables.
    /// `busyTimeoutMilliseconds` is set before the first access: another process opening the
    /// same file at the same moment (creating its schema, switching it to WAL) is waited for, not
    /// reported as "database is locked".
    static func openConnection(path: String, busyTimeoutMilliseconds: Int32) throws(SessionDatabaseError)
        -> SQLiteConnection
    {
        func failure(_ problem: SessionDatabaseError.Problem, cause: SQLiteError? = nil) -> SessionDatabaseError {
            guard let cause else { return SessionDatabaseError(path: path, problem: problem) }
            return SessionDatabaseError(path: path, problem: problem, cause: cause)
        }
        let files = FileManager.default
        var isDirectory: ObjCBool = false
        if files.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue {
            throw failure(.isDirectory)
        }
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent().path
        if !files.fileExists(atPath: folder) {
            do {
                try files.createDirectory(atPath: folder, withIntermediateDirectories: true)
            } catch {
                throw failure(.cannotCreateFolder(reason: Self.reason(of: error)))
            }
        }

        let connection: SQLiteConnection
        do {
            connection = try SQLiteConnection(path: path, create: true)
        } catch {
            throw failure(.cannotOpen(reason: error.message))
        }
        connection.setBusyTimeout(milliseconds: busyTimeoutMilliseconds)
        // Reading the header is the first real access: garbage bytes fail here, before any write.
        // One read transaction, so the three reads see one state of the file: read one by one,
        // they could straddle another opener's schema commit (its table, without its marker).
        func readHeader() throws(SessionDatabaseError) -> (applicationID: Int64, version: Int64, tables: [String]) {
            do {
                try connection.execute("BEGIN")
                defer { if !connection.isInAutocommit { try? connection.execute("COMMIT") } }
                return (
                    try connection.integer("PRAGMA application_id"), try connection.integer("PRAGMA user_version"),
                    try connection.textColumn(
                        "SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name"
                    )
                )
            } catch {
                if error.code == SQLITE_NOTADB { throw failure(.notADatabase(reason: error.message)) }
                throw failure(.unreadable(reason: error.message), cause: error)
            }
        }
        var (applicationID, version, tables) = try readHeader()
        if connection.isReadOnly { throw failure(.readOnly) }

        if applicationID == 0 && version == 0 && tables.isEmpty {
            if try create(in: connection, failure: { failure($0, cause: $1) }) { return connection }
            // Another server opening the same new file created it first: check theirs.
            (applicationID, version, tables) = try readHeader()
        }
        if applicationID != Self.applicationID {
            throw failure(.foreignSchema(tables: tables))
        } else if version > Self.version {
            throw failure(.newerSchema(version: version))
        } else if version == 1 {
            try checkColumns(of: connection, failure: { failure($0) })
            try addAliases(to: connection, failure: { failure($0, cause: $1) })
        } else if version < Self.version {
            throw failure(.damagedSchema(reason: "schema version \(version)"))
        } else {
            try checkColumns(of: connection, failure: { failure($0) })
            try checkAliasColumns(of: connection, failure: { failure($0) })
        }
        return connection
    }

    /// Creates the schema in one write transaction, looking again under its lock whether the file
    /// is still empty: false (and nothing written) when another connection created it meanwhile.
    private static func create(
        in connection: SQLiteConnection,
        failure: (SessionDatabaseError.Problem, SQLiteError?) -> SessionDatabaseError
    ) throws(SessionDatabaseError) -> Bool {
        do {
            try connection.execute("BEGIN IMMEDIATE")
            let isEmpty = try connection.integer("SELECT count(*) FROM sqlite_schema") == 0
            if isEmpty { try connection.execute(creation) }
            try connection.execute("COMMIT")
            return isEmpty
        } catch {
            if !connection.isInAutocommit { try? connection.execute("ROLLBACK") }
            throw failure(.cannotPrepare(reason: error.message), error)
        }
    }

    /// A version 1 file (sessions only) gets the aliases table, in one write transaction that
    /// looks at the version again under its lock (another server may have done it meanwhile).
    private static func addAliases(
        to connection: SQLiteConnection,
        failure: (SessionDatabaseError.Problem, SQLiteError?) -> SessionDatabaseError
    ) throws(SessionDatabaseError) {
        do {
            try connection.execute("BEGIN IMMEDIATE")
            if try connection.integer("PRAGMA user_version") == 1 {
                try connection.execute(aliasesCreation + " PRAGMA user_version = \(version);")
            }
            try connection.execute("COMMIT")
        } catch {
            if !connection.isInAutocommit { try? connection.execute("ROLLBACK") }
            throw failure(.cannotPrepare(reason: error.message), error)
        }
    }

    private static func checkAliasColumns(
        of connection: SQLiteConnection, failure: (SessionDatabaseError.Problem) -> SessionDatabaseError
    ) throws(SessionDatabaseError) {
        let columns: [String]
        do {
            columns = try connection.textColumn("SELECT name FROM pragma_table_info('aliases') ORDER BY cid")
        } catch {
            throw failure(.unreadable(reason: error.message))
        }
        guard columns == expectedAliasColumns else {
            let found = columns.isEmpty ? "no aliases table" : "aliases has " + columns.joined(separator: ", ")
            throw failure(.damagedSchema(reason: found))
        }
    }

    private static func checkColumns(
        of connection: SQLiteConnection, failure: (SessionDatabaseError.Problem) -> SessionDatabaseError
    ) throws(SessionDatabaseError) {
        let columns: [String]
        do {
            columns = try connection.textColumn("SELECT name FROM pragma_table_info('sessions') ORDER BY cid")
        } catch {
            throw failure(.unreadable(reason: error.message))
        }
        guard columns == expectedColumns else {
            let found = columns.isEmpty ? "no sessions table" : "sessions has " + columns.joined(separator: ", ")
            throw failure(.damagedSchema(reason: found))
        }
    }

    private static func reason(of error: any Error) -> String {
        let description = (error as NSError).localizedDescription
        return description.isEmpty ? "\(error)" : description
    }
}
