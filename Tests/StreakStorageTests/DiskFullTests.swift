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
}
