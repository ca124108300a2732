import CSQLite

/// A failed SQLite call: its primary result code and SQLite's own message.
struct SQLiteError: Error, CustomStringConvertible {
    /// The primary code (`SQLITE_BUSY`, `SQLITE_FULL`, ...), extended bits stripped.
    let code: Int32
    let message: String

    var description: String { message }
}

/// One SQLite connection and the statements prepared on it.
///
/// Not thread-safe on its own: its owner serializes every use (the store keeps it behind one
/// lock), which is why it is opened with `SQLITE_OPEN_NOMUTEX`.
final class SQLiteConnection {
    private let handle: OpaquePointer

    /// Opens (or creates, with `create`) the database file at `path`.
    init(path: String, create: Bool) throws(SQLiteError) {
        var opened: OpaquePointer?
        let flags = SQLITE_OPEN_READWRITE | (create ? SQLITE_OPEN_CREATE : 0) | SQLITE_OPEN_NOMUTEX
        let code = sqlite3_open_v2(path, &opened, flags, nil)
        guard let opened else {
            throw SQLiteError(code: code & 0xff, message: String(cString: sqlite3_errstr(code)))
        }
        guard code == SQLITE_OK else {
            let error = SQLiteError(code: code & 0xff, message: String(cString: sqlite3_errmsg(opened)))
            sqlite3_close_v2(opened)
            throw error
        }
        handle = opened
        // Extended codes tell SQLITE_IOERR_WRITE from SQLITE_IOERR_FSYNC in messages.
        sqlite3_extended_result_codes(handle, 1)
    }

    deinit {
        // close_v2 waits for statements still alive, so the order of deinits does not matter.
        sqlite3_close_v2(handle)
    }

    /// Whether SQLite fell back to read-only (the file or its folder is write-protected).
    var isReadOnly: Bool { sqlite3_db_readonly(handle, "main") == 1 }

    /// Whether no transaction is open (a failed COMMIT can leave one open).
    var isInAutocommit: Bool { sqlite3_get_autocommit(handle) != 0 }

    /// How long a statement waits for another connection's lock before failing with SQLITE_BUSY.
    func setBusyTimeout(milliseconds: Int32) {
        sqlite3_busy_timeout(handle, milliseconds)
    }

    /// Runs one or more statements that return no rows we need.
    func execute(_ sql: String) throws(SQLiteError) {
        let code = sqlite3_exec(handle, sql, nil, nil, nil)
        guard code == SQLITE_OK else { throw error(code) }
    }

    func prepare(_ sql: String) throws(SQLiteError) -> SQLiteStatement {
        var prepared: OpaquePointer?
        // PERSISTENT: these statements live as long as the connection and are reused per request.
        let code = sqlite3_prepare_v3(handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &prepared, nil)
        guard code == SQLITE_OK, let prepared else { throw error(code) }
        return SQLiteStatement(handle: prepared, connection: handle)
    }

    /// The first column of every row of a query, as text.
    func textColumn(_ sql: String) throws(SQLiteError) -> [String] {
        let statement = try prepare(sql)
        return try statement.rows { statement in statement.text(at: 0) }
    }

    /// The first column of a query's first row, as an integer (0 when there is no row).
    func integer(_ sql: String) throws(SQLiteError) -> Int64 {
        let statement = try prepare(sql)
        return try statement.rows { statement in statement.int64(at: 0) }.first ?? 0
    }

    private func error(_ code: Int32) -> SQLiteError {
        SQLiteError(code: code & 0xff, message: String(cString: sqlite3_errmsg(handle)))
    }
}

/// A prepared statement, reset after every use so that it holds no read transaction open.
final class SQLiteStatement {
    private let handle: OpaquePointer
    private let connection: OpaquePointer

    fileprivate init(handle: OpaquePointer, connection: OpaquePointer) {
        self.handle = handle
        self.connection = connection
    }

    deinit {
        sqlite3_finalize(handle)
    }

    /// Binds `values` to the parameters ?1, ?2, ... and runs the statement to its end.
    func run(_ values: SQLiteValue...) throws(SQLiteError) {
        _ = try rows(binding: values) { _ in () }
    }

    /// Binds `values`, steps through every row calling `read` on it, then resets the statement.
    func rows<Row>(binding values: [SQLiteValue] = [], _ read: (SQLiteStatement) -> Row) throws(SQLiteError)
        -> [Row]
    {
        defer {
            sqlite3_reset(handle)
            sqlite3_clear_bindings(handle)
        }
        for (offset, value) in values.enumerated() {
            try bind(value, at: Int32(offset + 1))
        }
        var result: [Row] = []
        while true {
            let code = sqlite3_step(handle)
            if code == SQLITE_DONE { return result }
            guard code == SQLITE_ROW else { throw error(code) }
            result.append(read(self))
        }
    }

    func bytes(at column: Int32) -> [UInt8] {
        let count = Int(sqlite3_column_bytes(handle, column))
        guard count > 0, let start = sqlite3_column_blob(handle, column) else { return [] }
        return Array(UnsafeRawBufferPointer(start: start, count: count))
    }

    func double(at column: Int32) -> Double { sqlite3_column_double(handle, column) }

    func int64(at column: Int32) -> Int64 { sqlite3_column_int64(handle, column) }

    func text(at column: Int32) -> String {
        guard let text = sqlite3_column_text(handle, column) else { return "" }
        return String(cString: text)
    }

    private func bind(_ value: SQLiteValue, at index: Int32) throws(SQLiteError) {
        let code: Int32
        switch value {
        case .blob(let bytes):
            code = bytes.withUnsafeBytes { buffer in
                sqlite3_bind_blob64(
                    handle, index, buffer.baseAddress, sqlite3_uint64(buffer.count), tabstage_sqlite_transient)
            }
        case .double(let number):
            code = sqlite3_bind_double(handle, index, number)
        }
        guard code == SQLITE_OK else { throw error(code) }
    }

    private func error(_ code: Int32) -> SQLiteError {
        SQLiteError(code: code & 0xff, message: String(cString: sqlite3_errmsg(connection)))
    }
}

/// A value bound to a statement parameter: the store only ever binds these two kinds.
enum SQLiteValue {
    case blob([UInt8])
    case double(Double)
}
