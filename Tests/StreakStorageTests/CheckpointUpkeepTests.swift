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

    @Test("writes go on while checkpoints fail; the failure is reported once, and so is the recovery")
    func failingCheckpointsAreReportedOnce() throws {
        let flaky = FlakyCheckpoint()
        let fixture = try StoreFixture(checkpointThreshold: 8, checkpoint: { flaky.run($0) })
        let reports = Mutex<[StoreUpkeepReport]>([])
        fixture.store.onUpkeepReport { report in reports.withLock { $0.append(report) } }
        let user = try fixture.store.createUser(name: "u").user.id
        let habit = try fixture.habit("Read", for: user, from: "2000-01-01")

        try CheckpointTests.record(300, days: habit, for: user, from: day("2000-01-01"), in: fixture)
        #expect(waitUntil { flaky.attempts.load(ordering: .relaxed) >= 3 })
        let failures = reports.withLock { $0 }
        let attempts = flaky.attempts.load(ordering: .relaxed)
        #expect(failures.count == 1, "\(failures.count) reports for \(attempts) attempts")
        #expect(failures.first?.upkeep == .checkpointLog)
        #expect(failures.first?.upkeep.job == "checkpoint_log")
        #expect(failures.first?.failure?.code == .io)
        #expect(fixture.sqlite.logRestarts == 0)

        flaky.failing.store(false, ordering: .relaxed)
        try CheckpointTests.record(300, days: habit, for: user, from: day("2001-01-01"), in: fixture)
        #expect(waitUntil { reports.withLock(\.count) == 2 })
        let recovery = reports.withLock { $0.dropFirst().first }
        #expect(recovery?.upkeep == .checkpointLog)
        #expect(recovery?.failure == nil)
        #expect(fixture.sqlite.logRestarts > 0)

        fixture.store.close()
        let reopened = try SQLiteStore(directory: fixture.directory)
        defer { reopened.close() }
        #expect(try reopened.completions(of: user).count == 600)
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
        switch SQLiteConnection.CheckpointOutcome.kind(of: code) {
        case .ran: kind = "ran"
        case .postponed: kind = "postponed"
        case .failed, nil: kind = "failed"
        }
        #expect(kind == meaning)
    }

    @Test("a checkpoint that copies only part of the log (a reader holds the rest) reports nothing")
    func partialCopyIsNoRecovery() throws {
        let flaky = FlakyCheckpoint()
        let fixture = try StoreFixture(checkpointThreshold: 8, checkpoint: { flaky.run($0) })
        let reports = Mutex<[StoreUpkeepReport]>([])
        fixture.store.onUpkeepReport { report in reports.withLock { $0.append(report) } }
        let user = try fixture.store.createUser(name: "u").user.id
        let habit = try fixture.habit("Read", for: user, from: "2000-01-01")
        try CheckpointTests.record(100, days: habit, for: user, from: day("2000-01-01"), in: fixture)
        #expect(waitUntil { reports.withLock(\.count) == 1 })
        // A reader's snapshot from now keeps every later frame out of the database; frames past
        // it before checkpoints work again, so that none of them can copy the whole log.
        let reader = try SQLiteConnection(path: fixture.directory + "/" + SQLiteStore.fileName)
        defer { reader.close() }
        try reader.execute("BEGIN")
        _ = try reader.query("SELECT count(*) FROM completions", [])
        try CheckpointTests.record(50, days: habit, for: user, from: day("2001-01-01"), in: fixture)
        flaky.failing.store(false, ordering: .relaxed)
        let attempts = flaky.attempts.load(ordering: .relaxed)
        try CheckpointTests.record(300, days: habit, for: user, from: day("2002-01-01"), in: fixture)
        #expect(waitUntil { flaky.attempts.load(ordering: .relaxed) > attempts + 2 })
        #expect(reports.withLock(\.count) == 1, "a partial copy was taken for a recovery")
        try reader.execute("COMMIT")
        try CheckpointTests.record(100, days: habit, for: user, from: day("2003-01-01"), in: fixture)
        #expect(waitUntil { reports.withLock(\.count) == 2 })
        #expect(reports.withLock { $0.last?.failure } == nil)
    }

    @Test("a checkpoint that cannot start now is no failure")
    func postponedIsNoFailure() throws {
        let fixture = try StoreFixture(checkpointThreshold: 8, checkpoint: { _ in .postponed })
        let reports = Mutex<[StoreUpkeepReport]>([])
        fixture.store.onUpkeepReport { report in reports.withLock { $0.append(report) } }
        let user = try fixture.store.createUser(name: "u").user.id
        let habit = try fixture.habit("Read", for: user, from: "2000-01-01")
        try CheckpointTests.record(200, days: habit, for: user, from: day("2000-01-01"), in: fixture)
        #expect(waitUntil { fixture.sqlite.completedCheckpoints.background > 0 })
        #expect(reports.withLock { $0 }.isEmpty)
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
