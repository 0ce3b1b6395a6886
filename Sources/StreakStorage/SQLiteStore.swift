import Dispatch
import FoundationEssentials
import StreakCore
import StreakPOSIX

/// The embedded store: one SQLite database in WAL mode with full synchronous commits.
///
/// Group commit (`SQLStore`) makes a thousand concurrent writers cost a few fsyncs, not a
/// thousand; the write-ahead log is copied back into the database on a thread of its own
/// (`WALCheckpointer`).
///
/// `@unchecked Sendable`: its properties are constants; the connections, which are not `Sendable`,
/// are each used by one thread at a time (a reader under its slot's lock, the write connection
/// on the writer thread, the checkpointer's on its own thread).
public final class SQLiteStore: SQLStore, @unchecked Sendable {
    /// The database file's name inside the data directory.
    public static let fileName = "streakd.sqlite3"

    /// The database file.
    public let path: String
    private let readers: [SQLiteConnection]
    private let writeConnection: SQLiteConnection
    private let checkpointer: WALCheckpointer
    /// Where the checkpointer reports its failures (`onUpkeepReport`).
    private let upkeep = UpkeepReporter()
    /// What opening did to the schema (the server logs it).
    public let migrationReport: MigrationReport

    /// Opens (creating and migrating) `<directory>/streakd.sqlite3`; creates the directory with mode 0700.
    /// - Parameter policy: whether an existing database of an older schema is upgraded
    ///   (`.upgrade`, the server) or refused (`.refuseUpgrade`, administrative commands).
    /// - Throws: `StorageError(.io)` when the directory or database cannot be opened,
    ///   `.failedPrecondition` when the file is not a SQLite database or is another program's
    ///   database (left unchanged), or its schema is older and `policy` refuses upgrading it,
    ///   `.corrupt` when it is damaged or its schema newer than this streakd knows.
    public convenience init(directory: String, policy: MigrationPolicy = .upgrade) throws(StorageError) {
        try self.init(directory: directory, checkpointThreshold: WALCheckpointer.defaultThreshold, policy: policy)
    }

    /// Opens the store with the log size, in pages, past which a checkpoint runs (tests use small
    /// ones), and how a checkpoint runs (tests give one that fails).
    init(
        directory: String,
        checkpointThreshold: Int32,
        policy: MigrationPolicy = .upgrade,
        checkpoint: @escaping @Sendable (SQLiteConnection.Handle) -> SQLiteConnection.CheckpointOutcome =
            SQLiteConnection.checkpointPassive
    ) throws(StorageError) {
        try DataDirectory.create(directory)
        path = PathText.joining(directory, Self.fileName)
        try Self.refuseForeignFile(path)
        let writeConnection = try SQLiteConnection(path: path, gatheringLogWrites: true)
        migrationReport = try Migration.migrate(writeConnection, migrations: Migration.all, policy: policy)
        // A reading connection per core (two to four): loading users reads in parallel (WAL).
        var readers: [SQLiteConnection] = []
        for _ in 0..<Self.readerCount { readers.append(try SQLiteConnection(path: path)) }
        checkpointer = try WALCheckpointer(
            path: path,
            threshold: checkpointThreshold,
            upkeep: upkeep,
            checkpoint: checkpoint
        )
        writeConnection.reportCommits(to: checkpointer)
        let pageSize = try writeConnection.query("PRAGMA page_size", []).first?.first?.integer ?? 4096
        let limit = WALCheckpointer.logSizeLimit(threshold: checkpointThreshold, pageSize: Int(pageSize))
        try writeConnection.execute("PRAGMA journal_size_limit = \(limit)")
        self.writeConnection = writeConnection
        self.readers = readers
        super.init(
            reader: readers[0],
            moreReaders: Array(readers.dropFirst()),
            writer: GroupCommitWriter(connection: writeConnection)
        )
    }

    /// What to do about a database file that is not streakd's, for `refuseForeignFile`.
    private static let moveAway =
        "move it away (streakd then creates a new store there), or point --data-dir (or STREAKD_DATA_DIR) "
        + "at the directory of your streakd database"

    /// Refuses an existing file at `path` that is not a SQLite database, or is another program's
    /// (tables but no `schema_migrations`), before anything opens it for writing: SQLite would
    /// say only "file is not a database", and migrating another program's database fails (or
    /// writes streakd's tables into it). A missing or empty file is a new store.
    private static func refuseForeignFile(_ path: String) throws(StorageError) {
        guard FileManager.default.fileExists(atPath: path) else { return }
        switch try SQLiteConnection.tables(inExisting: path) {
        case .notADatabase:
            throw StorageError(
                .failedPrecondition,
                "\(path) is not a database at all (SQLite does not recognise the file), so it is not a "
                    + "streakd database: \(moveAway)"
            )
        case .tables(let tables) where !tables.isEmpty && !tables.contains("schema_migrations"):
            let shown = tables.prefix(5).joined(separator: ", ") + (tables.count > 5 ? ", ..." : "")
            throw StorageError(
                .failedPrecondition,
                "\(path) is not a streakd database: it has tables (\(shown)) but no schema_migrations "
                    + "table, so it is another program's: \(moveAway)"
            )
        case .tables:
            return
        }
    }

    /// How many reading connections a store opens.
    static let readerCount = min(4, max(2, ProcessInfo.processInfo.activeProcessorCount))

    /// The schema version after migrating: the number of migrations applied.
    public var schemaVersion: Int { Migration.all.count }

    /// Checkpoints of the write-ahead log run so far: by the checkpointer's thread, and by the
    /// writer (the few frames committed during the checkpointer's copy, so the log restarts).
    public var completedCheckpoints: (background: Int, committer: Int) { checkpointer.completedCheckpoints }

    /// How many times the write-ahead log restarted from its beginning (for tests).
    var logRestarts: Int { checkpointer.logRestarts }

    /// The system calls that wrote the write-ahead log so far (for tests).
    var logWrites: Int64 { writeConnection.gatheredLogWrites }

    /// How many times the write-ahead log was extended with zeros ahead of its commits (for tests).
    var logExtensions: Int64 { writeConnection.logExtensions }

    /// Makes the next `count` writes to the log fail as on a full disk (tests, between writes).
    func failLogWrites(_ count: Int32) -> Bool { writeConnection.failLogWrites(count) }

    /// Reports checkpoints that fail and work again (`StoreUpkeep.checkpointLog`).
    public override func onUpkeepReport(_ handler: @escaping @Sendable (StoreUpkeepReport) -> Void) {
        upkeep.setHandler(handler)
    }

    override func writerStopped() {
        checkpointer.stop()
    }

    /// Statements finalized, the WAL checkpointed into the database file and truncated, both
    /// connections closed.
    override func closeConnections() {
        for reader in readers { reader.close() }
        // The writer and the checkpointer have ended: the write connection is free to checkpoint and close.
        writeConnection.close(checkpoint: true)
    }
}
