import Dispatch
import FoundationEssentials
import Synchronization

/// The store that several `streakd` servers share: one PostgreSQL database (see
/// `Migration.postgres` for the schema and how it shards by user).
///
/// Like the SQLite store it reads through one connection and writes through a single writer
/// thread with group commit; a write is acknowledged after PostgreSQL's durable COMMIT
/// (`synchronous_commit` on, the server's default). Each commit logs the users and parts it
/// changed (`ChangeNotice`, in the change log: `ChangeLog`) and then notifies the other servers
/// (`ChangeAnnouncer`), so that they read those rows again into their in-memory state and push to
/// their watchers (`onExternalChange`), through a third connection (`dayRows`,
/// `habitsAndSettings`).
///
/// `@unchecked Sendable`: its properties are constants or mutexes; the connections, which are not
/// `Sendable`, are each used by one thread at a time (the reader under its slot's lock, the
/// follower's under `SQLStore`'s lock, the write connection on the writer thread).
public final class PostgresStore: SQLStore, @unchecked Sendable {
    private let url: String
    private let timeout: Duration
    /// This store's name in its change notices, so that it ignores its own.
    private let origin = ChangeNotice.loggingOriginPrefix + UUID().uuidString
    private let reader: PostgresConnection
    /// Reads what other servers changed (`dayRows`, `habitsAndSettings`), apart from `reader`.
    private let followerReader: PostgresConnection
    private let writeConnection: PostgresConnection
    /// Where external changes are reported, in the order they were committed.
    private let notices = DispatchQueue(label: "streakd.storage.notices", qos: .userInitiated)
    private let listeners = Mutex<[PostgresListener]>([])
    /// Wakes the other servers after each commit.
    private let announcer: ChangeAnnouncer
    /// Where the listeners and the announcer report their failures (`onUpkeepReport`).
    private let upkeep = UpkeepReporter()
    /// What opening did to the schema (the server logs it).
    public let migrationReport: MigrationReport

    /// How long the store waits for PostgreSQL by default: `init(url:timeout:)`.
    public static let defaultTimeout: Duration = PostgresConnection.defaultTimeout

    /// Connects to the database at `url` (e.g. `postgresql://streakd@127.0.0.1:5432/streakd`) and
    /// migrates its schema.
    ///
    /// - Parameter timeout: The longest wait for PostgreSQL on any connection: to connect, or
    ///   for the answers to one statement or one flight of statements. A wait that times out
    ///   fails its call with `.io` (UNAVAILABLE) and abandons that connection, which the next
    ///   call opens anew; a write whose COMMIT was not answered is not acknowledged (it may
    ///   still have been committed). For a second after such a timeout (or the timeout, when
    ///   shorter), calls on that connection fail at once.
    /// - Parameter policy: whether a database of an older schema is upgraded (`.upgrade`, the
    ///   server) or refused (`.refuseUpgrade`, administrative commands).
    /// - Throws: `StorageError(.io)` when the server cannot be reached, `.corrupt` when the schema
    ///   is newer than this streakd knows, `.failedPrecondition` when it is older and `policy`
    ///   refuses upgrading it.
    public init(
        url: String,
        timeout: Duration = PostgresStore.defaultTimeout,
        policy: MigrationPolicy = .upgrade
    ) throws(StorageError) {
        self.url = url
        self.timeout = timeout
        let writeConnection = try PostgresConnection(url: url, timeout: timeout)
        migrationReport = try Migration.migrate(writeConnection, migrations: Migration.postgres, policy: policy)
        let reader = try PostgresConnection(url: url, timeout: timeout)
        let followerReader = try PostgresConnection(url: url, timeout: timeout)
        self.writeConnection = writeConnection
        self.reader = reader
        self.followerReader = followerReader
        let announcer = ChangeAnnouncer(url: url, timeout: timeout, upkeep: upkeep)
        self.announcer = announcer
        let notifier = ChangeNotice.Sender(origin: origin, announcer: announcer)
        let writer = GroupCommitWriter(connection: writeConnection, beforeCommit: notifier.statement)
        super.init(reader: reader, followerReader: followerReader, writer: writer)
    }

    /// Listens for the other servers' changes (a connection of its own) and reports them.
    public override func onExternalChange(_ handler: @escaping @Sendable (ExternalChange) -> Void) {
        let listener = PostgresListener(
            url: url,
            timeout: timeout,
            origin: origin,
            queue: notices,
            upkeep: upkeep,
            handler: handler
        )
        listeners.withLock { $0.append(listener) }
    }

    /// Reports failures to listen for, read, prune and announce changes (`StoreUpkeep`).
    public override func onUpkeepReport(_ handler: @escaping @Sendable (StoreUpkeepReport) -> Void) {
        upkeep.setHandler(handler)
    }

    /// The schema version after migrating: the last migration's.
    public var schemaVersion: Int { Migration.postgres.last?.version ?? 0 }

    override func closeConnections() {
        // After the writer stopped: its last batches are announced.
        announcer.stop()
        for listener in listeners.withLock({ $0 }) { listener.stop() }
        reader.close()
        followerReader.close()
        writeConnection.close()
    }
}
