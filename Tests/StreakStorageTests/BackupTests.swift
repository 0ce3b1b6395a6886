import Foundation
import StreakCore
import Synchronization
import Testing

@testable import StreakStorage

/// `SQLiteBackup`: consistent copies of a store that is being written, and their check.
@Suite("SQLite backups")
struct BackupTests {
    @Test("a copy taken while the store writes has every write acknowledged before it, in whole transactions")
    func copyWhileWriting() throws {
        // A small checkpoint threshold: the log is copied into the database during the backup too.
        let fixture = try StoreFixture(.sqlite, checkpointThreshold: 32)
        let user = try fixture.store.createUser(name: "alice").user.id
        let habits = try (0..<8).map { try fixture.habit("h\($0)", for: user, from: "2000-01-01").id }
        // Some history, so that the copy, a page a step, lasts long enough for many commits.
        let old = try fixture.habit("old", for: user, from: "1900-01-01").id
        let history = (0..<30_000).map {
            CompletionChange.record(habitID: old, date: try! day("1900-01-01").adding(days: $0))
        }
        _ = try fixture.write(.completions(history), for: user).get()
        let acknowledged = Mutex<[Int64: Int]>([:])
        let stop = Atomic(false)
        let threads = habits.map { habit in
            Thread {
                var date = day("2000-01-01")
                // Each habit's days in order, one at a time: the days stored are always a prefix.
                while !stop.load(ordering: .relaxed) {
                    guard case .success = fixture.write(.completions([.record(habitID: habit, date: date)]), for: user)
                    else { return }
                    acknowledged.withLock { $0[habit, default: 0] += 1 }
                    date = try! date.adding(days: 1)
                }
            }
        }
        for thread in threads { thread.start() }
        defer { stop.store(true, ordering: .relaxed) }
        while acknowledged.withLock({ $0.values.reduce(0, +) }) < 400 { usleep(1000) }
        let before = acknowledged.withLock { $0 }
        let copyPath = fixture.directory + "-copy.sqlite3"
        defer { try? FileManager.default.removeItem(atPath: copyPath) }
        // One page a step, a pause between steps: the writer commits many times during the copy.
        let copy = try SQLiteBackup.copy(
            database: fixture.sqlite.path,
            to: copyPath,
            replacing: false,
            pagesPerStep: 1,
            pause: .milliseconds(2)
        )
        let after = acknowledged.withLock { $0 }
        stop.store(true, ordering: .relaxed)
        #expect(
            copy.pages > 80 && copy.bytes == copy.pages * copy.pageSize && copy.schemaVersion == Migration.all.count
        )
        // It never started over (one step per page, and the last step finds nothing left).
        #expect(copy.steps == copy.pages)
        #expect(after.values.reduce(0, +) > before.values.reduce(0, +))
        let check = try SQLiteBackup.check(copyPath)
        #expect(check.passed, "\(check.problems)")
        #expect(check.users == 1 && check.habits == habits.count + 1)

        // Restored as a data directory's database, the copy opens as a store.
        let restored = fixture.directory + "-restored"
        defer { try? FileManager.default.removeItem(atPath: restored) }
        try FileManager.default.createDirectory(atPath: restored, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: copyPath, toPath: restored + "/" + SQLiteStore.fileName)
        let store = try SQLiteStore(directory: restored)
        defer { store.close() }
        let stored = Dictionary(grouping: try store.completions(of: user), by: \.habitID)
        for habit in habits {
            let days = (stored[habit] ?? []).map(\.date.dayNumber).sorted()
            let first = day("2000-01-01").dayNumber
            #expect(days == Array(first..<(first + days.count)), "habit \(habit): not a prefix of its days")
            #expect(days.count >= before[habit] ?? 0, "habit \(habit): \(days.count) < \(before[habit] ?? 0)")
            #expect(days.count <= after[habit] ?? 0)
        }
        #expect(try store.users().map(\.name) == ["alice"])
    }

    @Test("an existing destination is refused and kept; replacing is asked for; the copy is mode 0600")
    func destination() throws {
        let fixture = try StoreFixture(.sqlite)
        _ = try fixture.store.createUser(name: "alice")
        let directory = fixture.directory + "-backups"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/streakd.backup"
        try Data("keep me".utf8).write(to: URL(fileURLWithPath: path))
        #expect {
            try SQLiteBackup.copy(database: fixture.sqlite.path, to: path, replacing: false)
        } throws: { ($0 as? StorageError)?.code == .alreadyExists }
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "keep me")

        _ = try SQLiteBackup.copy(database: fixture.sqlite.path, to: path, replacing: true)
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
        #expect(try SQLiteBackup.check(path).users == 1)
        // No temporary file, journal, log or shared memory left beside it.
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory) == ["streakd.backup"])

        for refused in [fixture.sqlite.path, fixture.sqlite.path + "-wal", directory] {
            #expect {
                try SQLiteBackup.copy(database: fixture.sqlite.path, to: refused, replacing: true)
            } throws: { ($0 as? StorageError)?.code == .invalidArgument }
        }
        #expect {
            try SQLiteBackup.copy(database: directory + "/absent.sqlite3", to: directory + "/x", replacing: false)
        } throws: { ($0 as? StorageError)?.code == .notFound }
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory) == ["streakd.backup"])
    }

    @Test("the check finds a damaged copy")
    func damaged() throws {
        let fixture = try StoreFixture(.sqlite)
        let user = try fixture.store.createUser(name: "alice").user.id
        let habit = try fixture.habit("read", for: user, from: "2000-01-01")
        let changes = (0..<3000).map {
            CompletionChange.record(habitID: habit.id, date: try! day("2000-01-01").adding(days: $0))
        }
        _ = try fixture.write(.completions(changes), for: user).get()
        let path = fixture.directory + "-copy.sqlite3"
        defer { try? FileManager.default.removeItem(atPath: path) }
        let copy = try SQLiteBackup.copy(database: fixture.sqlite.path, to: path, replacing: false)
        #expect(try SQLiteBackup.check(path).completions == 3000)

        // Garbage over the middle of the pages that hold the completions.
        let file = try FileHandle(forUpdating: URL(fileURLWithPath: path))
        for page in (copy.pages / 2)..<(copy.pages - 1) {
            try file.seek(toOffset: UInt64(page * copy.pageSize + 200))
            file.write(Data(repeating: 0x55, count: copy.pageSize / 2))
        }
        try file.close()
        let check = try SQLiteBackup.check(path)
        #expect(!check.passed)
    }
}
