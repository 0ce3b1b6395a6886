import FoundationEssentials
import StreakCore
import Synchronization

/// A write waiting for the writer thread.
struct PendingWrite: Sendable {
    let write: StoreWrite
    let user: UserID
    let completion: @Sendable (Result<StoreWriteResult, StorageError>) -> Void
}

/// The single writer: drains the queue into one transaction per batch (group commit).
///
/// After each commit the writer thread itself runs the batch's completions, then the batch hook
/// (`onBatchAcknowledged`): no other thread is woken to acknowledge a batch, and the writes that
/// arrive meanwhile make the next batch larger.
final class GroupCommitWriter: @unchecked Sendable {
    private let connection: any SQLSession
    /// Run after each batch's completions; added before serving.
    private let batchHooks = Mutex<[BatchHook]>([])
    private let worker = WorkerThread<[PendingWrite]>(name: "streakd-storage-writer")
    /// The writes not yet taken into a batch; guarded by the worker's lock.
    private var queue: [PendingWrite] = []
    private var commits = 0
    /// The habits known from earlier batches, on SQLite (one writer, this one: nothing else changes
    /// them); nil on PostgreSQL, where other servers change them between batches.
    private let knownHabits: BatchHabits?
    /// Past this many users the known habits are dropped and read again as writes name them.
    static let knownHabitUsers = 4096

    /// The statement to run inside each batch's transaction, after its writes and before COMMIT
    /// (in the same flight), made from the writes and their results, and what to do once the
    /// batch is committed and acknowledged; a failure of the statement fails the whole batch
    /// (PostgreSQL: logs the changes for the other servers, then announces them). A deferred write
    /// (`BulkRecords`) counts as changed here: its row is changed in the same flight.
    typealias BeforeCommit =
        @Sendable ([PendingWrite], [Result<StoreWriteResult, StorageError>]) -> CommitRecord?
    private let beforeCommit: BeforeCommit?

    /// A `BeforeCommit`'s statement and what follows the commit.
    struct CommitRecord: Sendable {
        let statement: SQLStatement
        /// Run on the writer thread after the batch's completions.
        let afterCommit: @Sendable () -> Void
    }

    /// The `afterCommit` of the batch just committed; only used on the writer thread.
    private var committed: (@Sendable () -> Void)?

    init(connection: any SQLSession, beforeCommit: BeforeCommit? = nil) {
        self.connection = connection
        self.beforeCommit = beforeCommit
        knownHabits = connection.dialect == .sqlite ? BatchHabits() : nil
        worker.start(
            take: { [unowned self] _ in
                guard !queue.isEmpty else { return nil }
                defer { queue.removeAll(keepingCapacity: true) }
                return queue
            },
            run: { [unowned self] batch in
                let results = commit(batch)
                // By index: iterating `batch` would copy each write out (its payload and closure).
                for index in batch.indices { batch[index].completion(results[index]) }
                if let committed {
                    self.committed = nil
                    committed()
                }
                for hook in batchHooks.withLock({ $0 }) { hook.run() }
            }
        )
    }

    /// Transactions committed so far.
    var committedTransactions: Int { worker.withLock { commits } }

    func enqueue(_ write: PendingWrite) {
        let accepted = worker.update { stopping in
            guard !stopping else { return false }
            queue.append(write)
            return true
        }
        if !accepted { write.completion(.failure(.storeClosed)) }
    }

    /// Calls `hook` after the completions of every later batch, on the writer thread.
    func onBatchAcknowledged(_ hook: @escaping @Sendable () -> Void) {
        batchHooks.withLock { $0.append(BatchHook(run: hook)) }
    }

    /// Finishes every queued write and delivers its completion, then stops the thread (waits for it).
    func stop() {
        worker.stop()
    }

    /// Applies a batch in one transaction; each write that changes several rows in its own
    /// savepoint, so that a failure undoes all of that write and nothing of the others.
    ///
    /// A write with one changing statement needs no savepoint: its checks run first, and SQLite
    /// undoes a failed statement by itself. Should a statement fail in a way that aborts the whole
    /// transaction (any error on PostgreSQL, a full disk on SQLite), the batch is rolled back and
    /// applied again with every write in a savepoint of its own: the failure stays alone, and the
    /// common case costs no savepoint round trips. So is a batch whose failed write's savepoint
    /// cannot be undone (ROLLBACK TO fails while the transaction goes on): its rows may still be
    /// in the transaction, and a COMMIT would keep part of a write that was answered as failed.
    ///
    /// On PostgreSQL a batch of single records and removals costs two round trips: BEGIN with the
    /// locks of its days (`DayLocks`) and the query that reads and locks its habits, then the
    /// deferred records and removals, the change log's row and COMMIT (`SQLSession.run`). A write
    /// is acknowledged only after COMMIT answered.
    private func commit(
        _ batch: [PendingWrite],
        isolatingEvery: Bool = false
    ) -> [Result<StoreWriteResult, StorageError>] {
        if let knownHabits, knownHabits.userCount > Self.knownHabitUsers { knownHabits.removeAll() }
        let habits = knownHabits ?? BatchHabits()
        if let failure = begin(batch, habits: habits) { return batch.map { _ in .failure(failure) } }
        var bulk = BulkRecords(connection.dialect.batchesStatements && !isolatingEvery ? batch : [])
        switch applyWrites(batch, habits: habits, bulk: &bulk, isolatingEvery: isolatingEvery) {
        case .rolledBack(let answers):
            return isolatingEvery ? answers : commit(batch, isolatingEvery: true)
        case .applied(let results):
            return finish(batch, results: results, bulk: bulk)
        }
    }

    /// What became of a batch's writes inside its transaction.
    private enum Applied {
        /// Every write ran, each one alone in failing: the transaction goes on to COMMIT.
        case applied([Result<StoreWriteResult, StorageError>])
        /// A failure took more than its own write with it, and the transaction was rolled back:
        /// the batch runs again with every write in a savepoint of its own, or, when it already
        /// did, these are its answers.
        case rolledBack([Result<StoreWriteResult, StorageError>])
    }

    /// BEGIN, and on PostgreSQL the locks of the batch's days and its habits (read and locked),
    /// in one flight. - Returns: the error that fails the whole batch, after rolling back.
    private func begin(_ batch: [PendingWrite], habits: BatchHabits) -> StorageError? {
        let batches = connection.dialect.batchesStatements
        let locks = batches ? DayLocks.statement(for: batch) : nil
        let prefetch = batches ? habits.prefetch(for: batch, dialect: connection.dialect) : nil
        let opening = connection.run(
            [SQLStatement(connection.dialect.beginWrite)] + [locks, prefetch?.statement].compactMap { $0 }
        )
        do throws(StorageError) {
            if let failure = opening.failure { throw failure.error }
            if let prefetch, let rows = opening.rows.last { try habits.absorb(prefetch, rows: rows) }
            return nil
        } catch {
            if opening.failure?.index != 0 { rollback() }
            return error
        }
    }

    /// Applies each write in its place: single records and removals on PostgreSQL are checked
    /// here and deferred to the flight of COMMIT (`bulk`); a write that changes several rows (or
    /// every write, `isolatingEvery`) runs in a savepoint.
    private func applyWrites(
        _ batch: [PendingWrite],
        habits: BatchHabits,
        bulk: inout BulkRecords,
        isolatingEvery: Bool
    ) -> Applied {
        var results: [Result<StoreWriteResult, StorageError>] = []
        results.reserveCapacity(batch.count)
        // By index: iterating `batch` would copy each write out (its payload and closure).
        for index in batch.indices {
            let isolated = isolatingEvery || batch[index].write.changesSeveralRows
            let user = batch[index].user
            do {
                let applier = WriteApplier(connection: connection, user: user, habits: habits)
                if bulk.isEligible(index), case .completions(let changes) = batch[index].write {
                    // Checked here, in its place; applied with the others in the flight of COMMIT.
                    if case .record(let habitID, let date) = changes[0] {
                        try applier.checkRecord(habitID: habitID, date: date)
                    } else {
                        _ = try applier.existingHabit(changes[0].habitID)
                    }
                    bulk.append(index: index, change: changes[0], user: user)
                    results.append(.success(.completions(changed: [true])))
                    continue
                }
                if isolated { try connection.query("SAVEPOINT write") }
                let result = try applier.apply(batch[index].write)
                if isolated { try connection.query("RELEASE write") }
                // An import changes habits without telling the cache.
                if case .importData = batch[index].write { habits.forget(user) }
                results.append(.success(result))
            } catch {
                habits.forget(user)
                if isolated, !undoSavepoint(), !connection.transactionAborted {
                    // The write's own rows may still be in the transaction: committing it would
                    // keep part of a failed write. Nothing of the batch is kept; once more with
                    // every write in a savepoint of its own, else the batch fails, the failing
                    // write with its error and the others with one that may pass.
                    rollback()
                    return .rolledBack(batch.indices.map { $0 == index ? .failure(error) : .failure(Self.undoFailed) })
                }
                if connection.transactionAborted {
                    // The failure took the whole transaction with it (savepoint or not): the
                    // writes after it must not run outside one. Once more with every write in a
                    // savepoint of its own; when even that loses the transaction, nothing of
                    // the batch was kept.
                    rollback()
                    return .rolledBack(batch.map { _ in .failure(error) })
                }
                results.append(.failure(error))
            }
        }
        return .applied(results)
    }

    /// The deferred records and removals, the change log's row and COMMIT, in one flight.
    /// - Returns: the batch's answers, each final only now.
    private func finish(
        _ batch: [PendingWrite],
        results: [Result<StoreWriteResult, StorageError>],
        bulk: BulkRecords
    ) -> [Result<StoreWriteResult, StorageError>] {
        // PostgreSQL would answer COMMIT of an aborted transaction with a ROLLBACK.
        guard !connection.transactionAborted else {
            rollback()
            return batch.map { _ in .failure(StorageError(.io, "the transaction was aborted")) }
        }
        let deferred = bulk.statements
        let record = beforeCommit?(batch, results)
        let closing = connection.run(deferred + (record.map { [$0.statement] } ?? []) + [SQLStatement("COMMIT")])
        if let failure = closing.failure {
            // No answer (a timeout, a broken connection): the COMMIT may still have been carried
            // out, so the batch fails (UNAVAILABLE) and is not run again, which could apply it twice.
            let unknown = connection.outcomeUnknown
            rollback()
            // A deferred write failed in the database and took the transaction with it (there
            // are none when every write is isolated).
            if failure.index < deferred.count, !unknown { return commit(batch, isolatingEvery: true) }
            return batch.map { _ in .failure(failure.error) }
        }
        var results = results
        for (index, changed) in bulk.changed(by: Array(closing.rows.prefix(deferred.count))) {
            results[index] = .success(.completions(changed: [changed]))
        }
        worker.withLock { commits += 1 }
        committed = record?.afterCommit
        return results
    }

    /// Undoes the failed write's savepoint and ends it. - Returns: whether both statements
    /// succeeded; when either fails, the write's rows may still be in the transaction.
    private func undoSavepoint() -> Bool {
        do throws(StorageError) {
            try connection.query("ROLLBACK TO write")
            try connection.query("RELEASE write")
            return true
        } catch {
            return false
        }
    }

    /// The error of the writes of a batch rolled back because a failed write could not be undone
    /// alone: they were not applied, and sending them again may succeed.
    static let undoFailed = StorageError(.io, "the batch was rolled back: a failed write could not be undone alone")

    /// Rolls the open transaction back; what the writes of it taught the habit cache goes with it.
    private func rollback() {
        connection.rollBack()
        knownHabits?.removeAll()
    }
}

extension StoreWrite {
    /// Whether applying it may run more than one statement that changes rows (a batch of
    /// completions, a skip that removes a completion, a habit created with a schedule, a deletion,
    /// an import); every other write checks first and then changes rows with one statement.
    var changesSeveralRows: Bool {
        switch self {
        case .completions(let changes):
            changes.count > 1 || changes.contains { if case .skip = $0 { true } else { false } }
        case .createHabit(_, _, let schedule): schedule != nil
        case .deleteHabit, .importData: true
        default: false
        }
    }
}

/// The batch hook, in a struct: a bare function type kept in a Mutex is re-wrapped in a
/// reabstraction thunk at every access (docs/PERFORMANCE-LOG.md, "Two servers sharing users").
private struct BatchHook: Sendable {
    let run: @Sendable () -> Void
}
