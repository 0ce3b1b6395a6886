import Foundation
import StreakCore
import Synchronization
import Testing

@testable import StreakStorage

@Suite("Checkpoints that fail are the store's upkeep failing")
struct CheckpointUpkeepTests {
    /// A checkpoint that fails as on a broken disk while `failing` holds, else SQLite's own; counts
    /// the attempts.
    final class FlakyCheckpoint: Sendable {
        let failing = Atomic<Bool>(true)
        let attempts = Atomic<Int>(0)

        func run(_ handle: SQLiteConnection.Handle) -> SQLiteConnection.CheckpointOutcome {
            attempts.add(1, ordering: .relaxed)
            guard failing.load(ordering: .relaxed) else { return SQLiteConnection.checkpointPassive(handle) }
            return .failed(StorageError(.io, "disk I/O error (a test's)"))
        }
    }

    /// The upkeep reports a store made, in order.
    final class Reports: Sendable {
        private let list = Mutex<[StoreUpkeepReport]>([])
        func append(_ report: StoreUpkeepReport) { list.withLock { $0.append(report) } }
        var all: [StoreUpkeepReport] { list.withLock { $0 } }
    }

    /// A store with an 8-frame threshold and `checkpoint`, the reports it makes, and a user with a habit.
    struct Scene {
        let fixture: StoreFixture
        let reports = Reports()
        let user: UserID
        let habit: Habit

        init(checkpoint: @escaping @Sendable (SQLiteConnection.Handle) -> SQLiteConnection.CheckpointOutcome) throws {
            fixture = try StoreFixture(checkpointThreshold: 8, checkpoint: checkpoint)
            fixture.store.onUpkeepReport { [reports] in reports.append($0) }
            user = try fixture.store.createUser(name: "u").user.id
            habit = try fixture.habit("Read", for: user, from: "2000-01-01")
        }

        /// Records `count` consecutive days from `start`, eight writes in flight.
        func record(_ count: Int, from start: String) throws {
            try CheckpointTests.record(count, days: habit, for: user, from: day(start), in: fixture)
        }
    }

    @Test("writes go on while checkpoints fail; the failure is reported once, and so is the recovery")
    func failingCheckpointsAreReportedOnce() throws {
        let flaky = FlakyCheckpoint()
        let scene = try Scene(checkpoint: { flaky.run($0) })
        let (fixture, reports) = (scene.fixture, scene.reports)

        try scene.record(300, from: "2000-01-01")
        #expect(waitUntil { flaky.attempts.load(ordering: .relaxed) >= 3 })
        let failures = reports.all
        let attempts = flaky.attempts.load(ordering: .relaxed)
        #expect(failures.count == 1, "\(failures.count) reports for \(attempts) attempts")
        #expect(failures.first?.upkeep == .checkpointLog)
        #expect(failures.first?.upkeep.job == "checkpoint_log")
        #expect(failures.first?.failure?.code == .io)
        #expect(fixture.sqlite.logRestarts == 0)

        flaky.failing.store(false, ordering: .relaxed)
        try scene.record(300, from: "2001-01-01")
        #expect(waitUntil { reports.all.count == 2 })
        let recovery = reports.all.dropFirst().first
        #expect(recovery?.upkeep == .checkpointLog)
        #expect(recovery?.failure == nil)
        #expect(fixture.sqlite.logRestarts > 0)

        fixture.store.close()
        let reopened = try SQLiteStore(directory: fixture.directory)
        defer { reopened.close() }
        #expect(try reopened.completions(of: scene.user).count == 600)
    }

    @Test(
        "SQLite's result codes: OK ran, BUSY and LOCKED wait for the next checkpoint, anything else failed",
        arguments: [
            (0, "ran"),  // SQLITE_OK
            (5, "postponed"),  // SQLITE_BUSY: another checkpoint runs
            (261, "postponed"),  // SQLITE_BUSY_RECOVERY
            (6, "postponed"),  // SQLITE_LOCKED: a transaction of the connection is open
            (10, "failed"),  // SQLITE_IOERR
            (1034, "failed"),  // SQLITE_IOERR_FSYNC
            (13, "failed"),  // SQLITE_FULL
            (11, "failed"),  // SQLITE_CORRUPT
            (21, "failed"),  // SQLITE_MISUSE: waiting would not help
        ]
    )
    func resultCodes(code: Int32, meaning: String) {
        let kind: String
        let outcome = SQLiteConnection.CheckpointOutcome(resultCode: code, log: 0, copied: 0) {
            StorageError(.io, "test")
        }
        switch outcome {
        case .ran: kind = "ran"
        case .postponed: kind = "postponed"
        case .failed: kind = "failed"
        }
        #expect(kind == meaning)
    }

    @Test("a checkpoint that copies only part of the log (a reader holds the rest) reports nothing")
    func partialCopyIsNoRecovery() throws {
        let flaky = FlakyCheckpoint()
        let scene = try Scene(checkpoint: { flaky.run($0) })
        let (fixture, reports) = (scene.fixture, scene.reports)
        try scene.record(100, from: "2000-01-01")
        #expect(waitUntil { reports.all.count == 1 })
        // A reader's snapshot from now keeps every later frame out of the database; frames past
        // it before checkpoints work again, so that none of them can copy the whole log.
        let reader = try SQLiteConnection(path: fixture.directory + "/" + SQLiteStore.fileName)
        defer { reader.close() }
        try reader.execute("BEGIN")
        _ = try reader.query("SELECT count(*) FROM completions", [])
        try scene.record(50, from: "2001-01-01")
        flaky.failing.store(false, ordering: .relaxed)
        let attempts = flaky.attempts.load(ordering: .relaxed)
        try scene.record(300, from: "2002-01-01")
        #expect(waitUntil { flaky.attempts.load(ordering: .relaxed) > attempts + 2 })
        #expect(reports.all.count == 1, "a partial copy was taken for a recovery")
        try reader.execute("COMMIT")
        try scene.record(100, from: "2003-01-01")
        #expect(waitUntil { reports.all.count == 2 })
        #expect(reports.all.last?.failure == nil)
    }

    @Test("a checkpoint that cannot start now is no failure")
    func postponedIsNoFailure() throws {
        let scene = try Scene(checkpoint: { _ in .postponed })
        let (fixture, reports) = (scene.fixture, scene.reports)
        try scene.record(200, from: "2000-01-01")
        #expect(waitUntil { fixture.sqlite.completedCheckpoints.background > 0 })
        #expect(reports.all.isEmpty)
    }
}

/// Polls `condition` every 10 ms for up to 10 s.
private func waitUntil(_ condition: () -> Bool) -> Bool {
    let deadline = Date().addingTimeInterval(10)
    while Date() < deadline {
        if condition() { return true }
        usleep(10_000)
    }
    return condition()
}
