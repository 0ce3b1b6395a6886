import Foundation
import StreakCore
import Testing

@testable import StreakStorage

@Suite("Write-ahead log checkpoints")
struct CheckpointTests {
    @Test("the checkpointer's thread copies the log back, and every acknowledged write survives reopening")
    func checkpointsOffTheCommitPath() throws {
        let fixture = try StoreFixture(checkpointThreshold: 8)
        let user = try fixture.store.createUser(name: "u").user.id
        let habit = try fixture.habit("Read", for: user, from: "2020-01-01")
        let start = day("2020-01-01")
        for offset in 0..<300 {
            _ = try fixture.write(
                .completions([.record(habitID: habit.id, date: try start.adding(days: offset))]),
                for: user
            )
            .get()
        }
        let deadline = Date().addingTimeInterval(10)
        while fixture.sqlite.completedCheckpoints == 0 && Date() < deadline { usleep(10_000) }
        #expect(fixture.sqlite.completedCheckpoints > 0)
        fixture.store.close()
        let reopened = try SQLiteStore(directory: fixture.directory)
        defer { reopened.close() }
        #expect(try reopened.completions(of: user).count == 300)
    }
}
