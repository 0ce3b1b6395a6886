internal import CSQLite

/// One row of a result as `SQLSession.forEachRow` hands it over: read in place, column by
/// column, without a row array (a user's completions are most of what loading a user reads).
/// Valid only during the call it is given to.
struct SQLRowView {
    private enum Source {
        case statement(OpaquePointer)
        case values([SQLValue])
    }

    private let source: Source

    /// The current row of a stepped SQLite statement.
    init(statement: OpaquePointer) { source = .statement(statement) }

    /// A row already read.
    init(values: [SQLValue]) { source = .values(values) }

    /// The column as an integer; nil when it holds anything else.
    func integer(_ column: Int) -> Int64? {
        switch source {
        case .statement(let statement):
            guard sqlite3_column_type(statement, Int32(column)) == SQLITE_INTEGER else { return nil }
            return sqlite3_column_int64(statement, Int32(column))
        case .values(let values): return values[column].integer
        }
    }

    /// The column as an integer, 0 for NULL, converted as SQLite converts (one call per column
    /// where the type is known: the completions of a user are read this way).
    func int64(_ column: Int) -> Int64 {
        switch source {
        case .statement(let statement): sqlite3_column_int64(statement, Int32(column))
        case .values(let values): values[column].integer ?? 0
        }
    }

    /// Every column, as `query` returns them.
    var values: [SQLValue] {
        switch source {
        case .statement(let statement): SQLiteConnection.values(of: statement)
        case .values(let values): values
        }
    }
}

extension SQLSession {
    /// Runs one statement and calls `body` with each row (this default reads them all first).
    func forEachRow(
        _ sql: String,
        _ arguments: [SQLValue],
        _ body: (SQLRowView) throws(StorageError) -> Void
    ) throws(StorageError) {
        for row in try query(sql, arguments) { try body(SQLRowView(values: row)) }
    }
}
