import FoundationEssentials

/// Copies the write-ahead log back into the database on a thread of its own.
///
/// SQLite's automatic checkpoint runs inside the COMMIT that crosses its threshold, so every
/// few dozen group commits one of them also copies a thousand pages and syncs the database
/// file while every writer waits. Here the writer's connection only reports the log's size
/// after each commit; past `threshold` pages a second connection runs a PASSIVE checkpoint,
/// which never blocks the writer, and the log restarts from its beginning on a later commit.
final class WALCheckpointer: @unchecked Sendable {
    /// The log size, in pages, that starts a checkpoint: four times SQLite's default (a log of
    /// up to 16 MiB). Small writes keep changing the same pages, so a longer log copies each
    /// of them once for more commits: under the benchmark's durable writes the checkpoint
    /// thread's CPU fell from about 13 % to 5 % of a core, and the server's CPU per write by
    /// about 3 µs (docs/PERFORMANCE.md).
    static let defaultThreshold: Int32 = 4000

    private let connection: SQLiteConnection
    private let threshold: Int32
    private let worker = WorkerThread<Void>(name: "streakd-checkpointer")
    /// Whether a commit asked for a checkpoint that has not finished yet; guarded by the worker's lock.
    private var requested = false
    private var checkpoints = 0

    /// Opens a connection of its own to `path` and starts the thread.
    init(path: String, threshold: Int32 = WALCheckpointer.defaultThreshold) throws(StorageError) {
        connection = try SQLiteConnection(path: path)
        self.threshold = threshold
        // `requested` stays set while the checkpoint runs, so commits meanwhile do not ask again.
        worker.start(
            take: { [unowned self] stopping in requested && !stopping ? () : nil },
            run: { [unowned self] in
                // A failure (a reader holding an old snapshot, say) only postpones the copy: the
                // next commit past the threshold asks again, and the log stays correct meanwhile.
                _ = try? connection.query("PRAGMA wal_checkpoint(PASSIVE)")
                worker.withLock {
                    requested = false
                    checkpoints += 1
                }
            }
        )
    }

    /// Checkpoints run so far.
    var completedCheckpoints: Int { worker.withLock { checkpoints } }

    /// Called after each commit with the log's size in pages; cheap, never blocks on a checkpoint.
    func logSize(_ pages: Int32) {
        guard pages >= threshold else { return }
        worker.update { _ in requested = true }
    }

    /// Stops the thread after any checkpoint in progress (waits for it) and closes its connection.
    func stop() {
        worker.stop()
        _ = connection.close()
    }
}
