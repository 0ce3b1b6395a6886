import Foundation
import StreakCore
import Testing

@testable import StreakStorage

@Suite("Migrations and durability")
struct MigrationTests {
    @Test("a file that is not a database, or another program's database, is refused by name and left unchanged")
    func foreignFilesAreRefused() throws {
        let directory = NSTemporaryDirectory() + "streakd-foreign-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let path = directory + "/" + SQLiteStore.fileName
        let garbage = Data((0..<5000).map { UInt8(truncatingIfNeeded: $0 &* 7919 &+ 13) })
        try garbage.write(to: URL(fileURLWithPath: path))
        let notADatabase = #expect(throws: StorageError.self) { try SQLiteStore(directory: directory) }
        #expect(notADatabase?.code == .failedPrecondition)
        #expect(notADatabase?.message.hasPrefix("\(path) is not a database at all") == true, "\(notADatabase!)")
        #expect(notADatabase?.message.contains("move it away") == true)
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == garbage)

        try FileManager.default.removeItem(atPath: path)
        do {
            // Another program's database, in the default rollback journal mode.
            let other = try SQLiteConnection(path: path)
            try other.execute("PRAGMA journal_mode = DELETE; CREATE TABLE users (login TEXT); CREATE TABLE notes (x)")
            other.close()
        }
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        let foreign = #expect(throws: StorageError.self) { try SQLiteStore(directory: directory) }
        #expect(foreign?.code == .failedPrecondition)
        #expect(
            foreign?.message.hasPrefix("\(path) is not a streakd database: it has tables (notes, users)") == true,
            "\(foreign!)"
        )
        #expect(foreign?.message.contains("move it away") == true)
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)

        // An empty file is a new store.
        try Data().write(to: URL(fileURLWithPath: path))
        let store = try SQLiteStore(directory: directory)
        #expect(try store.users().isEmpty)
        store.close()
    }

    @Test("a database at schema version 1 is migrated and keeps its data")
    func migratesOldDatabase() throws {
        let directory = NSTemporaryDirectory() + "streakd-migration-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        do {
            // Version 1 numbered habits per user: both users own a habit 1.
            let old = try SQLiteConnection(path: directory + "/" + SQLiteStore.fileName)
            try Migration.migrate(old, migrations: Array(Migration.all.prefix(1)))
            #expect(try Migration.version(of: old) == 1)
            try old.execute(
                """
                INSERT INTO users (id, name, token_hash, created_at) VALUES (1, 'a', x'01', 0), (2, 'b', x'02', 0);
                INSERT INTO habits (user_id, id, name, created_on) VALUES (1, 1, 'Read', 19723), (2, 1, 'Run', 19723);
                INSERT INTO completions (user_id, habit_id, day) VALUES (1, 1, 19724);
                """
            )
        }
        let store = try SQLiteStore(directory: directory)
        defer { store.close() }
        #expect(store.schemaVersion == Migration.all.count)
        #expect(try store.habits(of: 1).map(\.name) == ["Read"])
        #expect(try store.habits(of: 2).map(\.name) == ["Run"])
        #expect(try store.completions(of: 1) == [Completion(habitID: 1, date: day("2024-01-02"))])
        let box = ResultBox()
        store.submit(.createHabit(name: "Write", createdOn: day("2024-01-01")), for: 2) { box.set($0) }
        guard case .habit(let habit) = try box.wait().get() else { throw StorageError(.corrupt, "not a habit") }
        #expect(habit.id == 2)
        let reopened = try SQLiteConnection(path: store.path)
        let names = try reopened.query("SELECT name FROM schema_migrations ORDER BY version").map { $0[0].text }
        #expect(names == Migration.all.map(\.name))
    }

    @Test("migrating twice changes nothing")
    func migrationIsIdempotent() throws {
        let fixture = try StoreFixture()
        let connection = try SQLiteConnection(path: fixture.sqlite.path)
        try Migration.migrate(connection, migrations: Migration.all)
        #expect(try Migration.version(of: connection) == Migration.all.count)
        #expect(Migration.all.map(\.version) == Array(1...Migration.all.count))
    }

    @Test("acknowledged writes are in the files on disk while the store is still open (crash snapshot)")
    func crashSnapshot() throws {
        let fixture = try StoreFixture()
        let user = try fixture.store.createUser(name: "u").user.id
        let habit = try fixture.habit("Read", for: user, from: "2020-01-01")
        for index in 0..<50 {
            let date = try day("2020-01-01").adding(days: index)
            _ = try fixture.write(.completions([.record(habitID: habit.id, date: date)]), for: user).get()
        }
        // Copy the database and its WAL as a crash would leave them: no close, no checkpoint.
        let copy = NSTemporaryDirectory() + "streakd-crash-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: copy) }
        try FileManager.default.createDirectory(atPath: copy, withIntermediateDirectories: true)
        for suffix in ["", "-wal"] where FileManager.default.fileExists(atPath: fixture.sqlite.path + suffix) {
            let target = copy + "/" + SQLiteStore.fileName + suffix
            try FileManager.default.copyItem(atPath: fixture.sqlite.path + suffix, toPath: target)
        }
        let recovered = try SQLiteStore(directory: copy)
        defer { recovered.close() }
        #expect(try recovered.completions(of: user).count == 50)
        #expect(try recovered.habits(of: user) == [habit])
    }

    @Test("after close, writes fail with .closed and a reopened store sees everything")
    func closeAndReopen() throws {
        let fixture = try StoreFixture()
        let user = try fixture.store.createUser(name: "u").user.id
        let habit = try fixture.habit("Read", for: user)
        _ = try fixture.write(.completions([.record(habitID: habit.id, date: day("2024-01-05"))]), for: user).get()
        fixture.store.close()
        let late = fixture.write(.createHabit(name: "x", createdOn: day("2024-01-01")), for: user)
        #expect(throws: StorageError(.closed, "the store is closed")) { try late.get() }
        let reopened = try SQLiteStore(directory: fixture.directory)
        defer { reopened.close() }
        #expect(try reopened.completions(of: user) == [Completion(habitID: habit.id, date: day("2024-01-05"))])
        #expect(try reopened.users().map(\.name) == ["u"])
    }

    @Test("close checkpoints the WAL into the database, truncates it, and later calls fail .closed")
    func closeCheckpoints() throws {
        let fixture = try StoreFixture()
        let user = try fixture.store.createUser(name: "u").user.id
        let habit = try fixture.habit("Read", for: user)
        for index in 0..<30 {
            let date = try day("2024-01-01").adding(days: index)
            _ = try fixture.write(.completions([.record(habitID: habit.id, date: date)]), for: user).get()
        }
        let wal = fixture.sqlite.path + "-wal"
        #expect(Self.size(of: wal) ?? 0 > 0)
        fixture.store.close()
        #expect((Self.size(of: wal) ?? 0) == 0)
        #expect(throws: StorageError(.closed, "the store is closed")) { try fixture.store.users() }
        #expect(throws: StorageError(.closed, "the store is closed")) { try fixture.store.habits(of: user) }
        fixture.store.close()  // twice is fine
        // Everything is in the main database file alone.
        let copy = NSTemporaryDirectory() + "streakd-closed-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: copy) }
        try FileManager.default.createDirectory(atPath: copy, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: fixture.sqlite.path, toPath: copy + "/" + SQLiteStore.fileName)
        let reopened = try SQLiteStore(directory: copy)
        defer { reopened.close() }
        #expect(try reopened.completions(of: user).count == 30)
    }

    @Test("a database from a newer streakd is refused with a clear error, and left unchanged")
    func newerSchemaIsRefused() throws {
        let fixture = try StoreFixture()
        let path = fixture.sqlite.path
        fixture.store.close()
        do {
            let connection = try SQLiteConnection(path: path)
            try connection.execute(
                "INSERT INTO schema_migrations (version, name, applied_at) VALUES (99, 'from the future', 0)"
            )
        }
        #expect {
            _ = try SQLiteStore(directory: fixture.directory)
        } throws: { error in
            guard let error = error as? StorageError else { return false }
            return error.message.contains("schema version 99") && error.message.contains("newer")
        }
        let connection = try SQLiteConnection(path: path)
        #expect(try Migration.version(of: connection) == 99)
    }

    static func size(of path: String) -> Int? {
        (try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int
    }
}
