import Foundation
import StreakCore
import Testing

@testable import StreakStorage

/// A full disk fails the writes made meanwhile, and only those.
@Suite struct DiskFullTests {
    @Test("writes work again once there is room, and a refused write left nothing behind")
    func writesResumeAfterADiskFull() throws {
        let fixture = try StoreFixture()
        let user = try fixture.store.createUser(name: "u").user.id
        let habit = try fixture.habit("Read", for: user, from: "2024-01-01")
        func record(_ date: String) throws -> Result<StoreWriteResult, StorageError> {
            try fixture.write(.completions([.record(habitID: habit.id, date: day(date))]), for: user)
        }
        _ = try record("2024-01-01").get()
        // The disk is full: every write to the log fails, so the commit does.
        #expect(fixture.sqlite.failLogWrites(1_000))
        guard case .failure(let full) = try record("2024-01-02") else {
            Issue.record("a write succeeded on a full disk")
            return
        }
        #expect(full.code == .diskFull, "\(full)")
        // Room again: the next writes succeed, without reopening the store.
        #expect(fixture.sqlite.failLogWrites(0))
        _ = try record("2024-01-03").get()
        _ = try record("2024-01-04").get()
        fixture.store.close()
        let reopened = try SQLiteStore(directory: fixture.directory)
        defer { reopened.close() }
        #expect(
            try reopened.completions(of: user).map(\.date).sorted() == [
                day("2024-01-01"), day("2024-01-03"), day("2024-01-04"),
            ]
        )
    }

    /// A full disk while a large write spills SQLite's page cache to the log, long before its
    /// COMMIT. The log's writes are gathered and handed to the file later, by a call whose error
    /// SQLite may not act on: frames SQLite took as written were lost, and the batch committed on
    /// top of them made the database malformed. Now the batch fails, the database stays whole, and
    /// each write's result says what the database kept.
    @Test("a full disk during a large write's cache spill fails its batch and corrupts nothing")
    func aFullDiskDuringACacheSpillCorruptsNothing() throws {
        let fixture = try StoreFixture()
        let user = try fixture.store.createUser(name: "u").user.id
        let habit = try fixture.habit("Read", for: user, from: "2000-01-01")
        // Hold the writer inside a completion so that the next two writes make one batch.
        let entered = DispatchSemaphore(value: 0)
        let gate = DispatchSemaphore(value: 0)
        fixture.store.submit(.completions([.record(habitID: habit.id, date: day("2000-01-01"))]), for: user) { _ in
            entered.signal()
            gate.wait()
        }
        entered.wait()
        // The next write to the log fails: the large write's cache spill, long before its COMMIT.
        #expect(fixture.sqlite.failLogWrites(1))
        let many = try (2..<300_000).map {
            try CompletionChange.record(habitID: habit.id, date: day("2000-01-01").adding(days: $0))
        }
        let large = fixture.submit(.completions(many), for: user)
        let recorded = fixture.submit(.completions([.record(habitID: habit.id, date: day("2000-01-02"))]), for: user)
        gate.signal()
        let largeResult = large.wait()
        let recordResult = recorded.wait()
        #expect(fixture.sqlite.failLogWrites(0))
        // Room again: the next write commits, without reopening the store.
        _ = try fixture.write(.completions([.record(habitID: habit.id, date: day("2900-01-01"))]), for: user).get()

        fixture.store.close()
        let reopened = try SQLiteStore(directory: fixture.directory)
        defer { reopened.close() }
        let kept = Set(try reopened.completions(of: user).map(\.date))
        let recordKept = kept.contains(day("2000-01-02"))
        let largeKept = kept.contains(day("2000-01-03"))
        #expect(kept.contains(day("2900-01-01")))
        #expect(
            ((try? recordResult.get()) != nil) == recordKept,
            "the record's result: \(recordResult); kept: \(recordKept)"
        )
        #expect(
            ((try? largeResult.get()) != nil) == largeKept,
            "the large write failed: \(largeResult); kept: \(largeKept)"
        )
    }
}

/// Which writes run in a savepoint of their own inside a batch.
@Suite struct WriteIsolationTests {
    @Test("a write of several changing statements is undone whole when one of them fails")
    func severalStatementsRunInASavepoint() {
        let today = day("2024-01-01")
        #expect(StoreWrite.deleteHabit(id: 1).changesSeveralRows)
        #expect(StoreWrite.importData(ImportBatch(today: today)).changesSeveralRows)
        #expect(
            StoreWrite.completions([.record(habitID: 1, date: today), .remove(habitID: 1, date: today)])
                .changesSeveralRows
        )
        #expect(StoreWrite.completions([.skip(habitID: 1, date: today)]).changesSeveralRows)
        #expect(!StoreWrite.completions([.record(habitID: 1, date: today)]).changesSeveralRows)
        #expect(!StoreWrite.renameHabit(id: 1, name: "x").changesSeveralRows)
    }
}
