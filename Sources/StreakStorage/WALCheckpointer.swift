import FoundationEssentials

/// Copies the write-ahead log back into the database, mostly on a thread of its own.
///
/// SQLite's automatic checkpoint runs inside the COMMIT that crosses its threshold, so every
/// few dozen group commits one of them also copies a thousand pages and syncs the database
/// file while every writer waits. Here the writer's connection only reports the log's size
/// after each commit; past `threshold` frames a second connection runs a PASSIVE checkpoint,
/// which never blocks the writer, and the writer copies the few frames committed meanwhile
/// itself, so that its next transaction restarts the log from its beginning (`CheckpointPlan`).
final class WALCheckpointer: @unchecked Sendable {
    /// The log size, in frames, that starts a checkpoint: four times SQLite's default (a log of
    /// up to 16 MiB). Small writes keep changing the same pages, and a longer log copies each
    /// of them once for more commits. (Raising it from 1,000 once cut the checkpointer's CPU by
    /// more than half, but that was mostly the log never restarting; since it restarts, 1,000
    /// and 4,000 measured alike under the benchmark's writes: docs/PERFORMANCE-LOG.md.)
    static let defaultThreshold: Int32 = 4000
    /// The most frames the writer copies itself after the checkpointer's copy: a quarter of
    /// the threshold, at most 256 (1 MiB of pages).
    static func defaultTail(threshold: Int32) -> Int32 { min(256, max(1, threshold / 4)) }

    /// The bytes a log file keeps once the log restarts (SQLite's `journal_size_limit`, set on
    /// the writer's connection): twice a log of `threshold` frames of `pageSize` bytes, in whole
    /// MiB like the log's extensions. A steady load never reaches it, since the log restarts at
    /// the threshold; after a spike (a large import, a reader that held the log back) the file
    /// shrinks back to it at the first commit of the restarted log instead of staying large.
    static func logSizeLimit(threshold: Int32, pageSize: Int) -> Int {
        let mebibyte = 1 << 20
        let bytes = 2 * Int(threshold) * (pageSize + 24)
        return (bytes + mebibyte - 1) / mebibyte * mebibyte
    }

    private let connection: SQLiteConnection
    /// Runs one PASSIVE checkpoint on a connection (tests give one that fails).
    private let checkpoint: @Sendable (SQLiteConnection.Handle) -> SQLiteConnection.CheckpointOutcome
    /// Hears when checkpoints start failing and when they work again (`StoreUpkeep.checkpointLog`).
    private let upkeep: UpkeepReporter
    private let worker = WorkerThread<Int>(name: "streakd-checkpointer")
    /// Guarded by the worker's lock.
    private var plan: CheckpointPlan
    /// The cycle of the log a background copy was asked for and has not started; guarded by the worker's lock.
    private var requested: Int?
    private var checkpoints = 0
    private var committerCheckpoints = 0

    /// Opens a connection of its own to `path` and starts the thread.
    /// - Parameters:
    ///   - upkeep: told when checkpoints start failing (the disk, the file) and work again.
    ///   - checkpoint: runs one PASSIVE checkpoint; tests give one that fails.
    init(
        path: String,
        threshold: Int32 = WALCheckpointer.defaultThreshold,
        upkeep: UpkeepReporter = UpkeepReporter(),
        checkpoint: @escaping @Sendable (SQLiteConnection.Handle) -> SQLiteConnection.CheckpointOutcome =
            SQLiteConnection.checkpointPassive
    ) throws(StorageError) {
        connection = try SQLiteConnection(path: path)
        self.checkpoint = checkpoint
        self.upkeep = upkeep
        plan = CheckpointPlan(threshold: threshold, tail: Self.defaultTail(threshold: threshold))
        worker.start(
            take: { [unowned self] stopping in
                guard !stopping, let cycle = requested else { return nil }
                requested = nil
                return cycle
            },
            run: { [unowned self] cycle in
                // A copy that fails or cannot start only postpones it: the next commit past the
                // threshold asks again, and the log stays correct meanwhile (only longer).
                let copied = report(connection.checkpointPassive(by: checkpoint))
                worker.withLock {
                    plan.copied(frames: copied, cycle: cycle)
                    checkpoints += 1
                }
            }
        )
    }

    /// Tells `upkeep` how a checkpoint went; returns the frames it copied. Only a copy of the
    /// whole log counts as working: while a reader holds an old snapshot a checkpoint may copy
    /// nothing and still succeed, without having written to the database file at all.
    ///
    /// The two threads' reports never cross: the writer copies the log's tail only once the
    /// checkpointer's thread has reported and finished (`CheckpointPlan`), and `UpkeepReporter`
    /// calls its handler outside its lock, so this order is the order the handler sees.
    private func report(_ outcome: SQLiteConnection.CheckpointOutcome) -> Int32 {
        switch outcome {
        case .ran(let log, let copied) where copied == log: upkeep.succeeded(.checkpointLog)
        case .ran, .postponed: break
        case .failed(let error): upkeep.failed(.checkpointLog, error)
        }
        return outcome.copied
    }

    /// Checkpoints run so far: by the checkpointer's thread, and by the writer (the log's tails).
    var completedCheckpoints: (background: Int, committer: Int) {
        worker.withLock { (checkpoints, committerCheckpoints) }
    }

    /// How many times the log restarted from its beginning (seen at the commit after).
    var logRestarts: Int { worker.withLock { plan.cycle } }

    /// Called on the writer's thread after each of its commits, with the log's size in frames
    /// and its connection: starts the background copy, or copies the log's tail on `writer`.
    func committed(logFrames frames: Int32, writer: SQLiteConnection.Handle) {
        let action = worker.withLock { plan.committed(logFrames: frames) }
        switch action {
        case .none:
            return
        case .inBackground(let cycle):
            worker.update { _ in requested = cycle }
        case .onCommitter:
            let copied = report(checkpoint(writer))
            worker.withLock {
                plan.copied(frames: copied, cycle: nil)
                committerCheckpoints += 1
            }
        }
    }

    /// Stops the thread after any checkpoint in progress (waits for it) and closes its connection.
    func stop() {
        worker.stop()
        _ = connection.close()
    }
}
