import Foundation
import StreakCore
import StreakTestSupport
import Testing

@testable import StreakStorage

@Suite("Upgrading a store made by the previous release")
struct UpgradeTests {
    @Test("an SQLite store at schema version 2 upgrades in place, keeps its data and takes the new writes")
    func sqliteFromVersion2() throws {
        let directory = NSTemporaryDirectory() + "streakd-upgrade-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        do {
            let old = try SQLiteConnection(path: directory + "/" + SQLiteStore.fileName)
            try Migration.migrate(old, migrations: Array(Migration.all.prefix(2)))
            try old.execute(Self.previousReleaseRows)
        }
        let store = try SQLiteStore(directory: directory)
        defer { store.close() }
        try Self.checkUpgraded(store)
    }

    @Test(
        "a PostgreSQL database at schema version 2 upgrades in place",
        arguments: Engine.available.filter { $0 == .postgres }
    )
    func postgresFromVersion2(engine: Engine) throws {
        let database = try PostgresTestDatabase()
        do {
            let old = try PostgresConnection(url: database.url)
            try Migration.migrate(old, migrations: Array(Migration.postgres.prefix(2)))
            try old.execute(Self.previousReleaseRows)
            try old.execute("SELECT setval('habit_ids', 10)")
            old.close()
        }
        let store = try PostgresStore(url: database.url)
        defer { store.close() }
        try Self.checkUpgraded(store)
    }

    /// What a store of the previous release held: a user, two habits (one archived), completions, settings.
    static let previousReleaseRows = """
        INSERT INTO users (id, name, token_hash, created_at) VALUES (1, 'a', NULL, 0);
        INSERT INTO habits (user_id, id, name, created_on, archived_on) VALUES
            (1, 1, 'Read', 19723, NULL), (1, 2, 'Run', 19723, 19800);
        INSERT INTO completions (user_id, habit_id, day) VALUES (1, 1, 19724), (1, 2, 19724);
        INSERT INTO settings (user_id, time_zone, locale, week_start, min_percent) VALUES (1, 'Europe/Berlin', 'de_DE', 2, 50);
        """

    static func checkUpgraded(_ store: SQLStore) throws {
        let habits = try store.habits(of: 1)
        #expect(habits.map(\.name) == ["Read", "Run"])
        #expect(habits.allSatisfy { $0.schedule == .everyDay })
        #expect(try store.completions(of: 1).count == 2)
        #expect(try store.skips(of: 1).isEmpty && store.restPeriods(of: 1).isEmpty)
        let settings = try store.settings(of: 1)
        #expect(settings.timeZone == "Europe/Berlin" && settings.minPercent == 50 && settings.dayStart == .midnight)
        // The new writes work on the upgraded store.
        let box = ResultBox()
        store.submit(.completions([.skip(habitID: 1, date: day("2024-01-02"))]), for: 1) { box.set($0) }
        #expect(try box.wait().get() == .completions(changed: [true]))
        #expect(try store.completions(of: 1) == [Completion(habitID: 2, date: day("2024-01-02"))])
        let scheduled = ResultBox()
        store.submit(.setSchedule(habitID: 1, weekdays: try WeekdaySet([.monday]), from: day("2024-02-01")), for: 1) {
            scheduled.set($0)
        }
        guard case .habit(let habit) = try scheduled.wait().get() else { throw StorageError(.corrupt, "not a habit") }
        #expect(habit.schedule.entries.count == 1)
    }
}
