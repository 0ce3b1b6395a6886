import Foundation
import StreakCore
import StreakFraming
import StreakStorage
import StreakTestSupport
import StreakWire
import Synchronization
import Testing

/// `streakd backup` beside a running server: a consistent copy under load, restored.
@Suite(.serialized) struct BackupTests {
    /// Clients that each record one habit on consecutive days, one write at a time, as fast as
    /// the server acknowledges them, and remember what was acknowledged.
    final class WriteLoad: Sendable {
        let start = day("2000-01-01")
        private let acknowledged: Mutex<[Int64: Int]>
        private let stopping = Atomic(false)
        private let running = Atomic(0)

        init(port: Int, token: String, habits: [Int64]) {
            acknowledged = Mutex(Dictionary(uniqueKeysWithValues: habits.map { ($0, 0) }))
            for habit in habits {
                Thread { [self] in
                    running.add(1, ordering: .relaxed)
                    defer { running.subtract(1, ordering: .relaxed) }
                    guard let connection = try? TestConnection(port: port) else { return }
                    defer { connection.close() }
                    var date = start
                    while !stopping.load(ordering: .relaxed) {
                        let request = WireRecordCompletionRequest.with {
                            $0.habitId = habit
                            $0.date = date
                        }
                        guard let status = try? connection.status(of: .recordCompletion, request, token: token),
                            status.code == .ok
                        else { return }
                        acknowledged.withLock { $0[habit, default: 0] += 1 }
                        date = try! date.adding(days: 1)
                    }
                }.start()
            }
        }

        /// Per habit, how many days (from `start` on, consecutive) were acknowledged so far.
        var counts: [Int64: Int] { acknowledged.withLock { $0 } }
        var total: Int { counts.values.reduce(0, +) }
        /// Clients still writing.
        var writers: Int { running.load(ordering: .relaxed) }

        /// Stops the clients and waits until they have.
        func stop() {
            stopping.store(true, ordering: .relaxed)
            let deadline = Date().addingTimeInterval(30)
            while running.load(ordering: .relaxed) > 0 && Date() < deadline { usleep(10_000) }
        }
    }

    @Test("a backup taken while 50 clients write restores to a sound store with every acknowledged write")
    func backupUnderLoad() throws {
        let directory = ServerProcess.temporaryDirectory()
        let backups = ServerProcess.temporaryDirectory(prefix: "streakd-backups")
        defer {
            try? FileManager.default.removeItem(at: directory)
            try? FileManager.default.removeItem(at: backups)
        }
        // A few megabytes of another user's history first, so that the copy takes many steps
        // while the writes go on.
        let filler = try SQLiteStore(directory: directory.path)
        let (user, token) = try filler.createUser(name: "writer")
        let other = try filler.createUser(name: "history").user.id
        var history: [Int64: Int] = [:]
        for index in 0..<10 {
            let habit = try Self.createHabit("old \(index)", on: day("1900-01-01"), for: other, in: filler)
            let days = (0..<30_000).map {
                CompletionChange.record(habitID: habit, date: try! day("1900-01-01").adding(days: $0))
            }
            filler.submit(.completions(days), for: other) { _ in }
            history[habit] = days.count
        }
        filler.close()

        let server = try ServerProcess.start(dataDirectory: directory)
        defer { server.stop() }
        let setup = try server.connect()
        let habits = try (0..<50).map { index in
            let answer: WireCreateHabitResponse = try setup.call(
                .createHabit,
                WireCreateHabitRequest.with {
                    $0.name = "writer \(index)"
                    $0.createdOn = day("2000-01-01")
                },
                token: token
            )
            return try #require(answer.habit).id
        }
        setup.close()

        let load = WriteLoad(port: server.port, token: token, habits: habits)
        defer { load.stop() }
        let deadline = Date().addingTimeInterval(60)
        while load.total < 2_000 && Date() < deadline { usleep(10_000) }
        #expect(load.writers == 50)
        // Acknowledged before the backup began: all of these must be in the copy.
        let before = load.counts
        let destination = backups.appendingPathComponent("streakd.backup").path
        let backup = try ServerProcess.run([
            "backup", destination, "--data-dir", directory.path, "--pages-per-step", "8", "--step-pause-ms", "2",
        ])
        let after = load.counts
        load.stop()
        #expect(backup.status == 0, "\(backup.error)")
        #expect(backup.output.hasPrefix("backed up \(directory.path)/streakd.sqlite3 to \(destination): "))
        // "... N pages of ... (S steps)": the copy took many slow steps and never started over,
        // although the server committed between them (it reads one snapshot throughout).
        let pages = backup.output.split(separator: ": ").last.flatMap { Int($0.prefix { $0.isNumber }) } ?? 0
        let steps = backup.output.split(separator: "(").last.flatMap { Int($0.prefix { $0.isNumber }) } ?? 0
        #expect(pages > 500 && steps == (pages + 7) / 8, "\(backup.output)")
        #expect(after.values.reduce(0, +) > before.values.reduce(0, +), "no write was acknowledged during the backup")
        print(
            "backup under load: \(before.values.reduce(0, +)) writes acknowledged before it, "
                + "\(after.values.reduce(0, +)) after; \(backup.output)"
        )

        let check = try ServerProcess.run(["backup", "--check", destination])
        #expect(check.status == 0, "\(check.output)\(check.error)")
        #expect(check.output.contains("PRAGMA integrity_check ok"))

        // Restore as documented: the copy becomes the database file of a data directory with no
        // -wal or -shm beside it.
        let restored = ServerProcess.temporaryDirectory(prefix: "streakd-restored")
        defer { try? FileManager.default.removeItem(at: restored) }
        try FileManager.default.copyItem(
            atPath: destination,
            toPath: restored.appendingPathComponent(SQLiteStore.fileName).path
        )
        let store = try SQLiteStore(directory: restored.path)
        #expect(try store.authenticate(token: token) == user.id)
        let stored = Dictionary(grouping: try store.completions(of: user.id), by: \.habitID)
        for habit in habits {
            let days = Set((stored[habit] ?? []).map(\.date.dayNumber))
            let count = before[habit] ?? 0
            // Every write acknowledged before the backup began, each checked.
            let missing = (0..<count).filter { !days.contains(load.start.dayNumber + $0) }
            #expect(missing.isEmpty, "habit \(habit): \(missing.count) of \(count) acknowledged days missing")
            // One client wrote the habit's days in order: a consistent copy holds a prefix of them.
            #expect(days == Set(load.start.dayNumber..<(load.start.dayNumber + days.count)), "habit \(habit)")
            #expect(days.count <= after[habit] ?? 0)
        }
        let old = Dictionary(grouping: try store.completions(of: other), by: \.habitID).mapValues(\.count)
        #expect(old == history)
        store.close()

        // And a server serves it.
        let second = try ServerProcess.start(dataDirectory: restored)
        defer { second.stop() }
        let listed: WireListHabitsResponse = try second.connect().call(
            .listHabits,
            WireListHabitsRequest(),
            token: token
        )
        #expect(listed.habits.count == habits.count)
    }

    @Test("backup --check counts the problems it lists, one per line")
    func checkCountsWhatItLists() throws {
        let directory = ServerProcess.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try SQLiteStore(directory: directory.path)
        let user = try store.createUser(name: "someone").user.id
        let habit = try Self.createHabit("daily", on: day("2000-01-01"), for: user, in: store)
        let days = (0..<50_000).map {
            CompletionChange.record(habitID: habit, date: try! day("2000-01-01").adding(days: $0))
        }
        store.submit(.completions(days), for: user) { _ in }
        store.close()
        // Damage the cells of every seventh page past the first few: SQLite reports the problems
        // of the b-trees in one row, one per line.
        let path = directory.appendingPathComponent(SQLiteStore.fileName).path
        let file = try #require(FileHandle(forUpdatingAtPath: path))
        let size = try file.seekToEnd()
        for offset in stride(from: UInt64(3 * 4096), to: size, by: 7 * 4096) {
            try file.seek(toOffset: offset + 100)
            file.write(Data(repeating: 0xAB, count: 200))
        }
        try file.close()

        let check = try ServerProcess.run(["backup", "--check", path])
        #expect(check.status == 1, "\(check.output)\(check.error)")
        let lines = check.output.split(separator: "\n")
        let counted = lines.first.flatMap { $0.split(separator: " found ").last }.flatMap {
            Int($0.prefix { $0.isNumber })
        }
        let listed = lines.dropFirst().filter { $0.hasPrefix("  ") }
        #expect(listed.count == lines.count - 1, "\(check.output)")
        #expect(counted == listed.count && listed.count > 1, "\(check.output)")
        #expect(!check.output.contains("*** in database"), "\(check.output)")
    }

    /// Creates a habit through the store and waits for it.
    static func createHabit(_ name: String, on date: CivilDate, for user: UserID, in store: SQLiteStore) throws -> Int64
    {
        let outcome = Mutex<Result<StoreWriteResult, StorageError>?>(nil)
        let done = DispatchSemaphore(value: 0)
        store.submit(.createHabit(name: name, createdOn: date), for: user) { result in
            outcome.withLock { $0 = result }
            done.signal()
        }
        done.wait()
        guard case .habit(let habit) = try outcome.withLock({ $0 })?.get() else {
            throw TestSupportError("the store created no habit")
        }
        return habit.id
    }

    @Test("backup refuses an existing DEST unless --force, writes mode 0600, and refuses PostgreSQL")
    func destinationAndRefusals() throws {
        let harness = try ServerHarness()
        defer { harness.finish() }
        let directory = harness.server.dataDirectory.path
        let backups = ServerProcess.temporaryDirectory(prefix: "streakd-backups")
        defer { try? FileManager.default.removeItem(at: backups) }
        let destination = backups.appendingPathComponent("copy.sqlite3").path

        let first = try ServerProcess.run(["backup", destination, "--data-dir", directory])
        #expect(first.status == 0, "\(first.error)")
        let attributes = try FileManager.default.attributesOfItem(atPath: destination)
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
        let original = try Data(contentsOf: URL(fileURLWithPath: destination))

        _ = try harness.createHabit("after the first backup", on: day("2024-01-01"))
        let again = try ServerProcess.run(["backup", destination, "--data-dir", directory])
        #expect(again.status == 1)
        #expect(again.error.contains("\(destination) already exists; pass --force"), "\(again.error)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: destination)) == original)

        let forced = try ServerProcess.run(["backup", destination, "--force", "--data-dir", directory])
        #expect(forced.status == 0, "\(forced.error)")
        #expect(try SQLiteBackup.check(destination).habits == 1)
        #expect(try FileManager.default.contentsOfDirectory(atPath: backups.path) == ["copy.sqlite3"])

        let postgres = try ServerProcess.run([
            "backup", backups.appendingPathComponent("pg").path, "--database-url", "postgresql://nobody@127.0.0.1:1/x",
        ])
        #expect(postgres.status != 0)
        #expect(postgres.error.contains("pg_dump"), "\(postgres.error)")

        let garbage = backups.appendingPathComponent("garbage").path
        try Data(repeating: 0x41, count: 8192).write(to: URL(fileURLWithPath: garbage))
        let check = try ServerProcess.run(["backup", "--check", garbage])
        #expect(check.status == 1, "\(check.output)")
        let missing = try ServerProcess.run(["backup", destination + ".x", "--data-dir", directory + "-absent"])
        #expect(missing.status == 1 && missing.error.contains("there is no database at"), "\(missing.error)")
        #expect(!FileManager.default.fileExists(atPath: directory + "-absent"))
    }
}
