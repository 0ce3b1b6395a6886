internal import CSQLite
internal import CSQLiteWAL

/// One SQLite connection, used by one thread at a time (the caller serialises).
final class SQLiteConnection: SQLSession {
    let dialect = SQLDialect.sqlite
    private var handle: OpaquePointer?
    private var statements: [String: OpaquePointer] = [:]
    private let path: String
    private let gatheringLogWrites: Bool
    /// Set by `dropSession`: the next statement opens the database again.
    private var reopening = false
    /// Told of each commit (`reportCommits`), again after a reopening.
    private weak var checkpointer: WALCheckpointer?

    /// Opens (creating) the database at `path` in WAL mode with full synchronous commits.
    /// - Parameter gatheringLogWrites: write each commit's log frames with one system call
    ///   (`streak_wal_vfs.h`); for the connection that commits.
    init(path: String, gatheringLogWrites: Bool = false) throws(StorageError) {
        self.path = path
        self.gatheringLogWrites = gatheringLogWrites
        try open()
    }

    /// Opens the database and gives the connection its settings; on any failure nothing stays open.
    private func open() throws(StorageError) {
        let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX
        let vfs: UnsafePointer<CChar>? =
            gatheringLogWrites && streak_wal_vfs_register() == SQLITE_OK ? streak_wal_vfs_name : nil
        guard sqlite3_open_v2(path, &handle, flags, vfs) == SQLITE_OK else {
            let message = handle.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
            sqlite3_close(handle)
            handle = nil
            throw StorageError(.io, "cannot open the database at \(path): \(message)")
        }
        sqlite3_busy_timeout(handle, 5000)
        do throws(StorageError) {
            try execute("PRAGMA journal_mode = WAL")
            // FULL, which also empties the log writes gathered for a commit before it becomes visible.
            try execute("PRAGMA synchronous = FULL")
            try execute("PRAGMA foreign_keys = ON")
        } catch {
            close()
            throw error
        }
        if let checkpointer { reportCommits(to: checkpointer) }
    }

    /// Closes the connection's session: the next statement opens the database again, with a new
    /// connection's settings (`withPragma`, for a setting that could not be set back).
    func dropSession() {
        close()
        reopening = true
    }

    /// After `dropSession`, opens the database again (each statement tries until it works).
    private func reopenIfDropped() throws(StorageError) {
        guard reopening, handle == nil else { return }
        do throws(StorageError) {
            try open()
        } catch {
            reopening = true
            throw error
        }
        reopening = false
    }

    deinit {
        close()
    }

    /// Finalizes every statement and closes the connection; later calls fail with `.closed`.
    /// - Parameter checkpoint: first copy the WAL into the database and truncate it, without
    ///   waiting for other connections (another process may keep it busy: then SQLite checkpoints
    ///   what it can, and the last connection to close finishes the job).
    /// - Returns: whether the checkpoint completed (false without one).
    @discardableResult
    func close(checkpoint: Bool = false) -> Bool {
        reopening = false
        guard let handle else { return false }
        var checkpointed = false
        if checkpoint {
            sqlite3_busy_timeout(handle, 0)
            checkpointed = sqlite3_exec(handle, "PRAGMA wal_checkpoint(TRUNCATE)", nil, nil, nil) == SQLITE_OK
        }
        for statement in statements.values { sqlite3_finalize(statement) }
        statements = [:]
        sqlite3_close(handle)
        self.handle = nil
        return checkpointed
    }

    func rollBack() {
        _ = try? query("ROLLBACK")
        forgetLostLogWrites()
    }

    /// Once no transaction is open, forgets log writes a failed flush of the gathering VFS lost:
    /// the transaction that took them as written is gone, and until then every commit fails
    /// (`streak_wal_vfs_forget_lost_writes`).
    private func forgetLostLogWrites() {
        if let handle { _ = streak_wal_vfs_forget_lost_writes(handle) }
    }

    /// Runs one or more statements without results.
    func execute(_ sql: String) throws(StorageError) {
        try reopenIfDropped()
        guard handle != nil else { throw StorageError.storeClosed }
        guard sqlite3_exec(handle, sql, nil, nil, nil) == SQLITE_OK else { throw error("execute") }
    }

    /// Runs a cached prepared statement with `arguments` and returns every row.
    @discardableResult
    func query(_ sql: String, _ arguments: [SQLValue]) throws(StorageError) -> [[SQLValue]] {
        let statement = try prepared(sql)
        defer {
            sqlite3_reset(statement)
            sqlite3_clear_bindings(statement)
        }
        try bind(arguments, to: statement)
        var rows: [[SQLValue]] = []
        try step(statement) { statement in rows.append(Self.values(of: statement)) }
        return rows
    }

    /// Runs a cached prepared statement with `arguments` and calls `body` with each row as it is
    /// stepped to.
    func forEachRow(
        _ sql: String,
        _ arguments: [SQLValue],
        _ body: (SQLRowView) throws(StorageError) -> Void
    ) throws(StorageError) {
        let statement = try prepared(sql)
        defer {
            sqlite3_reset(statement)
            sqlite3_clear_bindings(statement)
        }
        try bind(arguments, to: statement)
        try step(statement) { statement throws(StorageError) in try body(SQLRowView(statement: statement)) }
    }

    private func step(
        _ statement: OpaquePointer?,
        _ row: (OpaquePointer) throws(StorageError) -> Void
    ) throws(StorageError) {
        guard let statement else { throw StorageError.storeClosed }
        while true {
            let step = sqlite3_step(statement)
            if step == SQLITE_DONE { break }
            guard step == SQLITE_ROW else { throw error("step") }
            try row(statement)
        }
    }

    /// Every column of the statement's current row.
    static func values(of statement: OpaquePointer) -> [SQLValue] {
        (0..<sqlite3_column_count(statement)).map { column(statement, $0) }
    }

    /// The writes the gathering VFS made to this connection's log so far, or -1 (for tests).
    var gatheredLogWrites: Int64 { handle.map { streak_wal_vfs_log_writes($0) } ?? -1 }

    /// How many times the gathering VFS extended this connection's log with zeros, or -1 (for tests).
    var logExtensions: Int64 { handle.map { streak_wal_vfs_log_extensions($0) } ?? -1 }

    /// Makes the next `count` writes to this connection's log fail as on a full disk (0 stops it;
    /// for tests, while no statement runs). - Returns: whether the log is under the gathering VFS.
    func failLogWrites(_ count: Int32) -> Bool {
        handle.map { streak_wal_vfs_fail_log_writes($0, count) == 0 } ?? false
    }

    /// Rows changed by the last statement.
    var changes: Int { Int(sqlite3_changes(handle)) }

    /// Whether SQLite rolled back the transaction the caller opened (back in autocommit mode).
    var transactionAborted: Bool { handle == nil || sqlite3_get_autocommit(handle) != 0 }

    /// A connection's handle as SQLite's hooks pass it.
    typealias Handle = OpaquePointer

    /// Replaces SQLite's automatic checkpoints: after each commit, `checkpointer` receives the
    /// write-ahead log's size in frames and this connection's handle (on the committing thread).
    /// Keep `checkpointer` alive as long as the connection.
    func reportCommits(to checkpointer: WALCheckpointer) {
        self.checkpointer = checkpointer
        let context = Unmanaged.passUnretained(checkpointer).toOpaque()
        sqlite3_wal_hook(
            handle,
            { context, handle, _, frames in
                guard let context, let handle else { return SQLITE_OK }
                Unmanaged<WALCheckpointer>.fromOpaque(context).takeUnretainedValue()
                    .committed(logFrames: frames, writer: handle)
                return SQLITE_OK
            },
            context
        )
    }

    /// What a PASSIVE checkpoint did.
    enum CheckpointOutcome: Sendable {
        /// It ran: the log's frames, and how many of them are now in the database (fewer when a
        /// reader still needs the older ones).
        case ran(log: Int32, copied: Int32)
        /// It could not start now (another checkpoint runs, a lock is held, the store is closed):
        /// nothing is wrong, the next one copies it.
        case postponed
        /// It failed: the database file could not be read or written (an I/O error, a full disk,
        /// a damaged file).
        case failed(StorageError)

        /// The frames now in the database; 0 unless it ran.
        var copied: Int32 {
            if case .ran(_, let copied) = self { copied } else { 0 }
        }

        /// What a checkpoint's result code means: `.ran` for SQLITE_OK, `.postponed` for
        /// SQLITE_BUSY and SQLITE_LOCKED (another checkpoint runs, a transaction of the connection
        /// is open), `.failed` with `failure()` for anything else. A misuse is a failure: it does
        /// not go away by waiting, and the log would grow unreported.
        init(resultCode: Int32, log: Int32, copied: Int32, failure: () -> StorageError) {
            switch resultCode & 0xFF {
            case SQLITE_OK: self = .ran(log: log, copied: copied)
            case SQLITE_BUSY, SQLITE_LOCKED: self = .postponed
            default: self = .failed(failure())
            }
        }
    }

    /// Copies what it can of the write-ahead log into the database without waiting (PASSIVE), by
    /// `checkpoint` (tests give one that fails).
    func checkpointPassive(
        by checkpoint: (Handle) -> CheckpointOutcome = SQLiteConnection.checkpointPassive
    ) -> CheckpointOutcome {
        handle.map(checkpoint) ?? .postponed
    }

    /// `checkpointPassive()` on a handle a hook was given (the hook's connection may checkpoint).
    static func checkpointPassive(_ handle: Handle) -> CheckpointOutcome {
        var log: Int32 = 0
        var copied: Int32 = 0
        let result = sqlite3_wal_checkpoint_v2(handle, nil, SQLITE_CHECKPOINT_PASSIVE, &log, &copied)
        return CheckpointOutcome(resultCode: result, log: log, copied: copied) { error(of: handle, "checkpoint") }
    }

    private func bind(_ arguments: [SQLValue], to statement: OpaquePointer?) throws(StorageError) {
        for (index, argument) in arguments.enumerated() {
            let position = Int32(index + 1)
            let result: Int32
            switch argument {
            case .null: result = sqlite3_bind_null(statement, position)
            case .integer(let value): result = sqlite3_bind_int64(statement, position, value)
            case .text(let value): result = sqlite3_bind_text(statement, position, value, -1, csqlite_transient())
            case .blob(let bytes):
                result = bytes.withUnsafeBytes {
                    sqlite3_bind_blob(statement, position, $0.baseAddress, Int32($0.count), csqlite_transient())
                }
            }
            guard result == SQLITE_OK else { throw error("bind") }
        }
    }

    private static func column(_ statement: OpaquePointer?, _ index: Int32) -> SQLValue {
        switch sqlite3_column_type(statement, index) {
        case SQLITE_INTEGER: return .integer(sqlite3_column_int64(statement, index))
        case SQLITE_TEXT: return .text(String(cString: sqlite3_column_text(statement, index)))
        case SQLITE_BLOB:
            let count = Int(sqlite3_column_bytes(statement, index))
            guard count > 0, let base = sqlite3_column_blob(statement, index) else { return .blob([]) }
            return .blob(Array(UnsafeRawBufferPointer(start: base, count: count)))
        default: return .null
        }
    }

    private func prepared(_ sql: String) throws(StorageError) -> OpaquePointer? {
        if let statement = statements[sql] { return statement }
        try reopenIfDropped()
        guard handle != nil else { throw StorageError.storeClosed }
        var statement: OpaquePointer?
        let flags = UInt32(SQLITE_PREPARE_PERSISTENT)
        guard sqlite3_prepare_v3(handle, sql, -1, flags, &statement, nil) == SQLITE_OK else {
            throw error("prepare")
        }
        statements[sql] = statement
        return statement
    }

    /// The last failure as a StorageError, its code from SQLite's result code (`EngineFailure`);
    /// SQLite's message, which names schema objects and never a bound value, in the cause.
    private func error(_ operation: String) -> StorageError {
        // A full disk or I/O error may have made SQLite roll the transaction back itself.
        defer { forgetLostLogWrites() }
        return Self.error(of: handle, operation)
    }

    /// The last failure on `handle` as a StorageError (`error(_:)`, without a transaction's care).
    private static func error(of handle: Handle?, _ operation: String) -> StorageError {
        let code = sqlite3_extended_errcode(handle)
        let message = String(cString: sqlite3_errmsg(handle))
        let engine = EngineError(
            engine: "SQLite",
            failure: EngineFailure.sqlite(code),
            code: String(code),
            text: message,
            textMayHoldUserData: false
        )
        return StorageError(engine: engine, operation: operation)
    }
}

extension SQLiteConnection {
    /// What an existing database file holds, as `tables(inExisting:)` reads it.
    enum Contents: Equatable {
        /// A SQLite database (an empty file is one) with these tables, SQLite's own aside.
        case tables([String])
        /// A file SQLite does not recognise as a database.
        case notADatabase
    }

    /// The tables of the existing file at `path`, read without changing it: unlike `init`, this
    /// creates nothing and sets no journal mode (the file may be another program's).
    /// - Throws: `.corrupt` when the database is damaged, `.io` when it cannot be read; both
    ///   name the file.
    static func tables(inExisting path: String) throws(StorageError) -> Contents {
        var handle: OpaquePointer?
        defer { sqlite3_close(handle) }
        var statement: OpaquePointer?
        defer { sqlite3_finalize(statement) }
        let sql =
            "SELECT name FROM sqlite_master WHERE type = 'table' AND substr(name, 1, 7) != 'sqlite_' ORDER BY name"
        var result = sqlite3_open_v2(path, &handle, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX, nil)
        if result == SQLITE_OK {
            sqlite3_busy_timeout(handle, 5000)
            result = sqlite3_prepare_v2(handle, sql, -1, &statement, nil)
        }
        var names: [String] = []
        while result == SQLITE_OK || result == SQLITE_ROW {
            if result == SQLITE_ROW { names.append(String(cString: sqlite3_column_text(statement, 0))) }
            result = sqlite3_step(statement)
        }
        switch result & 0xFF {
        case SQLITE_DONE: return .tables(names)
        case SQLITE_NOTADB: return .notADatabase
        default:
            let message = handle.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
            let kind: StorageError.Code = (result & 0xFF) == SQLITE_CORRUPT ? .corrupt : .io
            throw StorageError(kind, "cannot read the database \(path) (\(result)): \(message)")
        }
    }
}
