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
        try Self.record(300, days: habit, for: user, from: day("2020-01-01"), in: fixture, window: 1)
        let deadline = Date().addingTimeInterval(10)
        while fixture.sqlite.completedCheckpoints.background == 0 && Date() < deadline { usleep(10_000) }
        #expect(fixture.sqlite.completedCheckpoints.background > 0)
        fixture.store.close()
        let reopened = try SQLiteStore(directory: fixture.directory)
        defer { reopened.close() }
        #expect(try reopened.completions(of: user).count == 300)
    }

    @Test("under a steady stream of commits the log keeps restarting from its beginning: it stays small")
    func logRestartsUnderSteadyCommits() throws {
        let fixture = try StoreFixture(checkpointThreshold: 64)
        let user = try fixture.store.createUser(name: "u").user.id
        let habit = try fixture.habit("Read", for: user, from: "1990-01-01")
        // Eight writes always in flight: the writer always finds the next commit waiting, so the
        // checkpointer's thread never sees the log's end stand still.
        let writes = 3000
        try Self.record(writes, days: habit, for: user, from: day("1990-01-01"), in: fixture)
        let checkpoints = fixture.sqlite.completedCheckpoints
        let restarts = fixture.sqlite.logRestarts
        let logBytes = try FileManager.default.attributesOfItem(atPath: fixture.logPath)[.size] as! Int
        // About 750 frames were committed: a dozen logs of 64. With the checkpointer's thread
        // alone the log did not restart once in this loop and grew to 3–4 MiB.
        #expect(restarts >= 5, "\(restarts) restarts after \(checkpoints) checkpoints")
        #expect(checkpoints.committer > 0, "\(checkpoints)")
        // 64 frames are 256 KiB of log, and the log file grows by whole MiB.
        #expect(logBytes <= 2 << 20, "a log of \(logBytes) bytes after \(restarts) restarts")
        fixture.store.close()
        let reopened = try SQLiteStore(directory: fixture.directory)
        defer { reopened.close() }
        #expect(try reopened.completions(of: user).count == writes)
    }

    @Test("a reader's old snapshot holds the log back without a checkpoint per commit; once it ends the log restarts")
    func readerHoldsTheLogBack() throws {
        let fixture = try StoreFixture(checkpointThreshold: 64)
        let user = try fixture.store.createUser(name: "u").user.id
        let habit = try fixture.habit("Read", for: user, from: "1990-01-01")
        func stream(_ writes: Int, from start: String) throws {
            try Self.record(writes, days: habit, for: user, from: day(start), in: fixture)
        }
        // A reader in a transaction, like `streakd backup`: it reads as of its first statement.
        let reader = try SQLiteConnection(path: fixture.directory + "/" + SQLiteStore.fileName)
        try reader.execute("BEGIN")
        let seen = try reader.query("SELECT count(*) FROM completions", [])
        let restartsBefore = fixture.sqlite.logRestarts
        let commitsBefore = fixture.store.committedTransactions
        let checkpointsBefore = fixture.sqlite.completedCheckpoints.background
        try stream(1500, from: "1990-01-01")
        let commits = fixture.store.committedTransactions - commitsBefore
        let checkpoints = fixture.sqlite.completedCheckpoints.background - checkpointsBefore
        #expect(fixture.sqlite.logRestarts == restartsBefore)
        // One copy per 16 frames (a quarter of the threshold) while held, not one per commit.
        #expect(checkpoints * 2 < commits, "\(checkpoints) background checkpoints for \(commits) commits")
        #expect(try reader.query("SELECT count(*) FROM completions", []) == seen)
        try reader.execute("COMMIT")
        reader.close()
        try stream(1500, from: "2000-01-01")
        #expect(fixture.sqlite.logRestarts > restartsBefore)
    }

    @Test("after a spike the log file shrinks back to its limit once the log restarts")
    func logShrinksAfterSpike() throws {
        let fixture = try StoreFixture(checkpointThreshold: 64)
        let user = try fixture.store.createUser(name: "u").user.id
        let habit = try fixture.habit("Read", for: user, from: "1900-01-01")
        func logSize() throws -> Int {
            try FileManager.default.attributesOfItem(atPath: fixture.logPath)[.size] as! Int
        }
        // One transaction of some MiB of log (40,000 days of four habits), far past the threshold.
        let habits =
            [habit] + (try ["Run", "Write", "Walk"].map { try fixture.habit($0, for: user, from: "1900-01-01") })
        let history = habits.flatMap { habit in
            (0..<40_000).map {
                CompletionChange.record(habitID: habit.id, date: try! day("1900-01-01").adding(days: $0))
            }
        }
        _ = try fixture.write(.completions(history), for: user).get()
        let spike = try logSize()
        let limit = WALCheckpointer.logSizeLimit(threshold: 64, pageSize: 4096)
        #expect(limit == 1 << 20)
        #expect(spike > limit, "a log of \(spike) bytes after the spike")
        // Single writes until the log restarted and took one more commit.
        let restarts = fixture.sqlite.logRestarts
        let start = day("2020-01-01")
        var offset = 0
        while fixture.sqlite.logRestarts == restarts && offset < 5_000 {
            _ = try fixture.write(
                .completions([.record(habitID: habit.id, date: try start.adding(days: offset))]),
                for: user
            ).get()
            offset += 1
        }
        #expect(fixture.sqlite.logRestarts > restarts)
        let after = try logSize()
        #expect(after <= limit, "a log of \(after) bytes after the restart")
        fixture.store.close()
        let reopened = try SQLiteStore(directory: fixture.directory)
        defer { reopened.close() }
        #expect(try reopened.completions(of: user).count == 160_000 + offset)
    }

    @Test("a commit's log frames reach the file in one write, large transactions in 124 KiB pieces")
    func logWritesGathered() throws {
        let fixture = try StoreFixture(checkpointThreshold: 100_000)
        let user = try fixture.store.createUser(name: "u").user.id
        let habit = try fixture.habit("Read", for: user, from: "1900-01-01")
        let before = fixture.sqlite.logWrites
        try Self.record(50, days: habit, for: user, from: day("2020-01-01"), in: fixture, window: 1)
        // One write per commit (SQLite's own VFS makes two per page: a frame's header, then its page).
        let writes = fixture.sqlite.logWrites - before
        #expect(before >= 0 && writes == 50, "\(writes) log writes for 50 commits")
        // A transaction of several MiB of log (more than the unix VFS writes in one call).
        let history = (0..<40_000).map {
            CompletionChange.record(habitID: habit.id, date: try! day("1900-01-01").adding(days: $0))
        }
        _ = try fixture.write(.completions(history), for: user).get()
        fixture.store.close()
        let reopened = try SQLiteStore(directory: fixture.directory)
        defer { reopened.close() }
        #expect(try reopened.completions(of: user).count == 40_050)
    }

    @Test("a growing log is extended by whole MiB of zeros ahead of its commits, and reads back whole")
    func logExtendedAhead() throws {
        let fixture = try StoreFixture(checkpointThreshold: 100_000)
        let user = try fixture.store.createUser(name: "u").user.id
        let habit = try fixture.habit("Read", for: user, from: "1900-01-01")
        let log = fixture.logPath
        let mebibyte = 1 << 20
        func logSize() throws -> Int { try FileManager.default.attributesOfItem(atPath: log)[.size] as! Int }
        try Self.record(50, days: habit, for: user, from: day("2020-01-01"), in: fixture, window: 1)
        // Fifty small commits fit in the first MiB: it was written once, before the first of them.
        #expect(try logSize() == mebibyte)
        #expect(fixture.sqlite.logExtensions == 1)
        // Some MiB in one transaction (40,000 days of three habits): the file grows to the next
        // whole MiB past it.
        let habits = [habit] + (try ["Run", "Write"].map { try fixture.habit($0, for: user, from: "1900-01-01") })
        let history = habits.flatMap { habit in
            (0..<40_000).map {
                CompletionChange.record(habitID: habit.id, date: try! day("1900-01-01").adding(days: $0))
            }
        }
        _ = try fixture.write(.completions(history), for: user).get()
        let grown = try logSize()
        #expect(grown > mebibyte && grown % mebibyte == 0, "log of \(grown) bytes")
        #expect(fixture.sqlite.logExtensions > 1)
        // The zeros past the last frame end the log for SQLite's recovery: reopening reads every commit.
        fixture.store.close()
        let reopened = try SQLiteStore(directory: fixture.directory)
        defer { reopened.close() }
        #expect(try reopened.completions(of: user).count == 120_050)
    }

    /// Records `count` consecutive days of `habit` from `start`, keeping `window` writes in flight.
    static func record(
        _ count: Int,
        days habit: Habit,
        for user: UserID,
        from start: CivilDate,
        in fixture: StoreFixture,
        window: Int = 8
    ) throws {
        var inFlight: [ResultBox] = []
        for offset in 0..<count {
            if inFlight.count == window { _ = try inFlight.removeFirst().wait().get() }
            let change = CompletionChange.record(habitID: habit.id, date: try start.adding(days: offset))
            inFlight.append(fixture.submit(.completions([change]), for: user))
        }
        for box in inFlight { _ = try box.wait().get() }
    }
}
