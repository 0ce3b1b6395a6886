/// A database connection that the storage code runs its SQL on, whichever the engine: the
/// statements are written once, with `?` placeholders, in the SQL that SQLite and PostgreSQL share.
/// Used by one thread at a time (the caller serialises).
protocol SQLSession: AnyObject {
    /// The engine, for the few statements that differ.
    var dialect: SQLDialect { get }
    /// Runs one statement with `arguments` bound to its `?` placeholders and returns every row.
    @discardableResult
    func query(_ sql: String, _ arguments: [SQLValue]) throws(StorageError) -> [[SQLValue]]
    /// Runs one statement and calls `body` with each row, read in place where the engine allows
    /// (SQLite; elsewhere the rows are read first: `SQLRowView`).
    func forEachRow(
        _ sql: String,
        _ arguments: [SQLValue],
        _ body: (SQLRowView) throws(StorageError) -> Void
    ) throws(StorageError)
    /// Rows changed by the last statement.
    var changes: Int { get }
    /// Runs one or more statements without arguments or results (migrations, transactions).
    func execute(_ sql: String) throws(StorageError)
    /// Whether a failed statement ended the open transaction's usefulness: PostgreSQL aborts it
    /// on any error until a rollback; SQLite rolls it back itself on a few (a full disk).
    var transactionAborted: Bool { get }
    /// Rolls the open transaction back, ignoring a failure (SQLite may have rolled it back itself).
    func rollBack()
    /// Whether what the last failed statement or flight sent may still have been carried out:
    /// the server did not answer in time, or the connection broke before it answered (PostgreSQL;
    /// never on SQLite). A COMMIT in it may have committed, so it must be neither acknowledged
    /// nor run again.
    var outcomeUnknown: Bool { get }
    /// Runs `statements` in order, stopping at the first that fails; on PostgreSQL they are sent
    /// together and cost one round trip (`PostgresConnection.run`), elsewhere one by one.
    func run(_ statements: [SQLStatement]) -> SQLFlight
    /// Closes the session without a word: the next statement opens a new one, with the settings
    /// a new connection starts with.
    func dropSession()
}

extension SQLSession {
    /// Runs one statement without arguments.
    @discardableResult
    func query(_ sql: String) throws(StorageError) -> [[SQLValue]] {
        try query(sql, [])
    }

    func run(_ statements: [SQLStatement]) -> SQLFlight {
        .oneByOne(statements, on: self)
    }

    var outcomeUnknown: Bool { false }

    /// Runs `body` with the pragma `name` set to `value`, then sets it back to `restore`.
    ///
    /// The store's reading connections also run its bulk transactions (`createUsers`,
    /// `populate`) and serve every later read and administrative write, so a setting that stayed
    /// (foreign keys not checked) would quietly apply to all of those. When it cannot be set
    /// back, the session is dropped (`dropSession`) instead of going back into service: the next
    /// statement opens a new one with the connection's own settings, or fails if it cannot.
    /// `body`'s outcome stands either way; what it committed is committed, and reporting a
    /// failure for it would have its caller believe otherwise.
    func withPragma<T>(
        _ name: String,
        _ value: String,
        restoring restore: String,
        _ body: () throws(StorageError) -> T
    ) throws(StorageError) -> T {
        try execute("PRAGMA \(name) = \(value)")
        defer {
            do throws(StorageError) {
                try execute("PRAGMA \(name) = \(restore)")
            } catch {
                dropSession()
            }
        }
        return try body()
    }
}

/// Where SQLite and PostgreSQL differ for the storage code.
enum SQLDialect: Sendable {
    case sqlite
    case postgres

    /// Starts a write transaction. SQLite takes the write lock at once (IMMEDIATE), so a busy
    /// database fails here rather than halfway through a batch.
    var beginWrite: String {
        switch self {
        case .sqlite: "BEGIN IMMEDIATE"
        case .postgres: "BEGIN"
        }
    }

    /// Appended to a write transaction's query of the habits it writes: on PostgreSQL it locks
    /// them until the commit. A batch that changes habits (names, archive days, schedules, or
    /// deletes them) takes them exclusively (`FOR NO KEY UPDATE`); a batch that only records,
    /// removes or skips days shares them (`FOR SHARE`): other servers' completion writes of the
    /// same habits go on at the same time, and a habit change waits for them (a recorded day
    /// cannot land after a concurrent archive day). Two servers' writes of one habit and day are
    /// ordered by `DayLocks`. SQLite's write lock already serialises every write transaction.
    func lockHabits(shared: Bool) -> String {
        switch self {
        case .sqlite: ""
        case .postgres: shared ? " FOR SHARE" : " FOR NO KEY UPDATE"
        }
    }

    /// Starts the transaction that migrates the schema, holding the database's write lock.
    var beginMigration: String {
        switch self {
        case .sqlite: "BEGIN IMMEDIATE"
        case .postgres: "BEGIN; SELECT pg_advisory_xact_lock(7411)"
        }
    }

    /// A query with a row when the migrations table exists.
    var migrationsTableExists: String {
        switch self {
        case .sqlite: "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'schema_migrations'"
        case .postgres: "SELECT 1 WHERE to_regclass('schema_migrations') IS NOT NULL"
        }
    }

    /// Whether each statement is a round trip to a server, so that a group commit batches its
    /// statements: it reads its writes' habits in one query (`BatchHabits.prefetch`) and inserts
    /// its single-completion records with one statement (`BulkRecords`). PostgreSQL: yes; SQLite
    /// runs in-process, with nothing to save.
    var batchesStatements: Bool { self == .postgres }

    /// The statement that yields the next rest period id, unique in the store (as habit ids).
    var nextRestPeriodID: String {
        switch self {
        case .sqlite: Self.sqliteNextID(table: "rest_periods", kind: "rest_period")
        case .postgres: "SELECT nextval('rest_period_ids')"
        }
    }

    /// The statement that yields the next habit id, unique in the store and never reused. SQLite
    /// has one writer, so the maximum plus one (past the deleted ids too) is safe; several servers
    /// share a PostgreSQL database, so a sequence.
    var nextHabitID: String {
        switch self {
        case .sqlite: Self.sqliteNextID(table: "habits", kind: "habit")
        case .postgres: "SELECT nextval('habit_ids')"
        }
    }

    /// One past the largest id of `table` in use or deleted (`retired_ids`, kept by triggers).
    private static func sqliteNextID(table: String, kind: String) -> String {
        """
        SELECT MAX(COALESCE((SELECT MAX(id) FROM \(table)), 0),
                   COALESCE((SELECT max_id FROM retired_ids WHERE kind = '\(kind)'), 0)) + 1
        """
    }
}

/// A value bound to or read from the database.
enum SQLValue: Hashable {
    case null
    case integer(Int64)
    case text(String)
    case blob([UInt8])

    var integer: Int64? { if case .integer(let value) = self { value } else { nil } }
    var text: String? { if case .text(let value) = self { value } else { nil } }
    var blob: [UInt8]? { if case .blob(let value) = self { value } else { nil } }
}

extension StorageError {
    /// The error of any call on a store after `close()`.
    static let storeClosed = StorageError(.closed, "the store is closed")
}

extension SQLValue {
    /// A PostgreSQL array literal of `numbers` (`{1,2,3}`), bound as text and cast in the SQL
    /// (`?::bigint[]`).
    static func integerArray(_ numbers: some Sequence<Int64>) -> SQLValue {
        .text("{" + numbers.map(String.init).joined(separator: ",") + "}")
    }
}
