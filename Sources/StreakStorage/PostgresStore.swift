import Foundation
import Synchronization

/// The store that several `streakd` servers share: one PostgreSQL database (see
/// `Migration.postgres` for the schema and how it shards by user).
///
/// Like the SQLite store it reads through one connection and writes through a single writer
/// thread with group commit; a write is acknowledged after PostgreSQL's durable COMMIT
/// (`synchronous_commit` on, the server's default). Each commit notifies the other servers of the
/// users and days it changed (`ChangeNotice`), so that they reload those users' in-memory state
/// and push to their watchers (`onExternalChange`).
public final class PostgresStore: SQLStore, @unchecked Sendable {
    private let url: String
    /// This store's name in its change notices, so that it ignores its own.
    private let origin = UUID().uuidString
    private let reader: PostgresConnection
    private let writeConnection: PostgresConnection
    private let listeners = Mutex<[PostgresListener]>([])

    /// Connects to the database at `url` (e.g. `postgresql://streakd@127.0.0.1:5432/streakd`) and
    /// migrates its schema.
    /// - Throws: `StorageError(.io)` when the server cannot be reached, `.corrupt` when the schema
    ///   is newer than this streakd knows.
    public init(url: String) throws(StorageError) {
        self.url = url
        let writeConnection = try PostgresConnection(url: url)
        try Migration.migrate(writeConnection, migrations: Migration.postgres)
        let reader = try PostgresConnection(url: url)
        self.writeConnection = writeConnection
        self.reader = reader
        let notifier = ChangeNotice.Sender(origin: origin)
        let writer = GroupCommitWriter(connection: writeConnection, beforeCommit: notifier.send)
        super.init(reader: reader, writer: writer)
    }

    /// Listens for the other servers' changes (a connection of its own) and reports them.
    public override func onExternalChange(_ handler: @escaping @Sendable (ExternalChange) -> Void) {
        let listener = PostgresListener(url: url, origin: origin, queue: completionQueue, handler: handler)
        listeners.withLock { $0.append(listener) }
    }

    /// The schema version after migrating: the number of migrations applied.
    public var schemaVersion: Int { Migration.postgres.count }

    override func closeConnections() {
        for listener in listeners.withLock({ $0 }) { listener.stop() }
        reader.close()
        writeConnection.close()
    }
}
