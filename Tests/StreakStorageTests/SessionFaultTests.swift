import Dispatch
import Foundation
import StreakCore
import Testing

@testable import StreakStorage

/// Statements the engine refuses where the store's undo or clean-up depends on them: a failed
/// write keeps nothing, and a shared connection never goes back into service with a setting
/// meant for one transaction.
@Suite struct SessionFaultTests {
    /// A migrated store's database with one user, and its path; the store is closed again.
    private static func database() throws -> (directory: String, path: String, user: UserID) {
        let directory = NSTemporaryDirectory() + "streakd-faults-\(UUID().uuidString)"
        let store = try SQLiteStore(directory: directory)
        defer { store.close() }
        return (directory, store.path, try store.createUser(name: "u").user.id)
    }

    private static func count(_ table: String, on connection: SQLiteConnection) throws -> Int64 {
        try connection.query("SELECT COUNT(*) FROM \(table)").first?.first?.integer ?? -1
    }

    @Test("a failed write whose savepoint cannot be rolled back keeps none of its rows")
    func failedRollbackToKeepsNothing() throws {
        let (directory, path, user) = try Self.database()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let session = FaultySession(try SQLiteConnection(path: path))
        // The habit's schedule is refused after its habit row was inserted, and the savepoint
        // that would undo the habit row cannot be rolled back to.
        session.fail { $0.contains("INSERT INTO schedules") }
        session.fail { $0 == "ROLLBACK TO write" }
        let writer = GroupCommitWriter(connection: session)
        // Held in the first write's completion, so that the next three make one batch.
        let entered = DispatchSemaphore(value: 0)
        let gate = DispatchSemaphore(value: 0)
        writer.enqueue(
            PendingWrite(write: .createHabit(name: "first", createdOn: day("2024-01-01")), user: user) { _ in
                entered.signal()
                gate.wait()
            }
        )
        entered.wait()
        let writes: [StoreWrite] = [
            .createHabit(name: "plain", createdOn: day("2024-01-01")),
            .createHabit(name: "scheduled", createdOn: day("2024-01-01"), schedule: try WeekdaySet([.monday])),
            .createHabit(name: "later", createdOn: day("2024-01-01")),
        ]
        let boxes = writes.map { write in
            let box = ResultBox()
            writer.enqueue(PendingWrite(write: write, user: user) { box.set($0) })
            return box
        }
        gate.signal()
        let results = boxes.map { $0.wait() }
        writer.stop()

        #expect(throws: StorageError.self) { try results[1].get() }
        let names = Set(try session.inner.query("SELECT name FROM habits").compactMap { $0.first?.text })
        #expect(!names.contains("scheduled"), "the failed write's habit was committed")
        // Whatever was answered as done is stored, and nothing else.
        for (index, name) in [(0, "plain"), (2, "later")] {
            #expect(((try? results[index].get()) != nil) == names.contains(name), "\(name): \(results[index])")
        }
        #expect(try Self.count("schedules", on: session.inner) == 0)
    }

    @Test("populate drops its reading session when foreign keys cannot be switched on again")
    func populateNeverLeavesForeignKeysOff() throws {
        let (directory, path, user) = try Self.database()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let reader = FaultySession(try SQLiteConnection(path: path))
        reader.fail(times: 1) { $0 == "PRAGMA foreign_keys = ON" }
        let store = SQLStore(reader: reader, writer: GroupCommitWriter(connection: try SQLiteConnection(path: path)))
        defer { store.close() }
        try store.populate([
            (user, [PopulatedHabit(name: "Read", createdOn: day("2024-01-01"), completions: [day("2024-01-02")])])
        ])
        #expect(reader.droppedSessions == 1)
        // The next statement runs on a new session, which checks foreign keys.
        #expect(try reader.inner.query("PRAGMA foreign_keys").first?.first?.integer == 1)
        // What populate committed stands.
        #expect(try store.completions(of: user).map(\.date) == [day("2024-01-02")])
        #expect(throws: StorageError.self) {
            try reader.inner.query(
                "INSERT INTO completions (user_id, habit_id, day) VALUES (?, 999, 1)",
                [.integer(user)]
            )
        }
    }

    @Test("createUsers drops its session when the page cache's size cannot be set back")
    func createUsersNeverLeavesTheLargeCache() throws {
        let (directory, path, _) = try Self.database()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let reader = FaultySession(try SQLiteConnection(path: path))
        let before = try reader.query("PRAGMA cache_size").first?.first?.integer
        reader.fail(times: 1) { $0 == "PRAGMA cache_size = \(before ?? 0)" }
        let store = SQLStore(reader: reader, writer: GroupCommitWriter(connection: try SQLiteConnection(path: path)))
        defer { store.close() }
        let created = try store.createUsers(names: ["a", "b"])
        #expect(created.count == 2)
        #expect(reader.droppedSessions == 1)
        #expect(try reader.inner.query("PRAGMA cache_size").first?.first?.integer == before)
        #expect(try store.users().map(\.name) == ["u", "a", "b"])
    }

    @Test("a dropped session opens again with the connection's own settings; a closed one does not")
    func aDroppedSessionReopens() throws {
        let (directory, path, _) = try Self.database()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let connection = try SQLiteConnection(path: path)
        try connection.execute("PRAGMA foreign_keys = OFF")
        connection.dropSession()
        #expect(try connection.query("PRAGMA foreign_keys").first?.first?.integer == 1)
        connection.close()
        #expect(throws: StorageError.storeClosed) { try connection.query("SELECT 1") }
    }
}
