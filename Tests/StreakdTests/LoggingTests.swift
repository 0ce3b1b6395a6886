import Foundation
import StreakCore
import StreakFraming
import StreakTestSupport
import StreakWire
import Testing

@testable import StreakStorage

/// Logs carry no tokens and no habit names, even at the debug level.
@Suite struct LoggingTests {
    @Test func debugLogsHoldNoTokenAndNoHabitName() throws {
        let harness = try ServerHarness(extraArguments: ["--log-level", "debug"])
        defer { harness.server.removeDataDirectory() }
        let name = "Zebra-Habit-7731"
        let renamed = "Okapi-Habit-4417"
        let wrong = "stk_" + String(repeating: "9", count: 64)
        let habit = try harness.createHabit(name, on: day("2024-01-01"))
        try harness.record(habit.id, day("2024-01-02"))
        let _: WireRenameHabitResponse = try harness.call(
            .renameHabit,
            WireRenameHabitRequest.with {
                $0.habitId = habit.id
                $0.name = renamed
            }
        )
        let _: WireGetDayResponse = try harness.call(.getDay, WireGetDayRequest.with { $0.date = day("2024-01-02") })
        #expect(try harness.status(.createHabit, WireCreateHabitRequest.with { $0.name = name + "\u{7}" }).code != .ok)
        #expect(try harness.connection.status(of: .listHabits, WireListHabitsRequest(), token: wrong).code != .ok)
        // A protocol error and a reset connection are logged at debug level too.
        let bad = try harness.server.connect()
        try bad.sendRaw([0, 0, 0, 5, 99, 0, 0, 0, 1])
        _ = bad.framesUntilClose()
        #expect(harness.server.stop() == 0)

        let log = harness.server.log
        #expect(log.contains("debug"), "no debug lines: \(log)")
        for secret in [harness.token, wrong, name, renamed] {
            #expect(!log.contains(secret), "the log contains \(secret)")
        }
    }

    /// The engines a server of these tests runs on: SQLite, and PostgreSQL when a server is configured.
    enum Engine: String, CaseIterable, CustomTestStringConvertible {
        case sqlite, postgres

        static var available: [Engine] {
            PostgresTestDatabase.serverURL == nil && !PostgresTestDatabase.required ? [.sqlite] : allCases
        }

        var testDescription: String { rawValue }
    }

    /// PostgreSQL quotes the row a constraint refused (`DETAIL: Key (user_id, name)=(1, ...)
    /// already exists.`); the log line has the codes and the reference the client got instead.
    @Test(
        "a refusal by the database is logged with its codes and reference, not the habit name it quoted",
        arguments: Engine.available
    )
    func engineRefusalsHoldNoHabitName(engine: Engine) throws {
        let database = engine == .postgres ? try PostgresTestDatabase() : nil
        let harness = try ServerHarness(
            extraArguments: ["--log-level", "debug"] + (database.map { ["--database-url", $0.url] } ?? [])
        )
        defer { harness.server.removeDataDirectory() }
        let name = "Zebra-Habit-7731"
        _ = try harness.createHabit(name, on: day("2024-01-01"))
        // Habit names made unique in the database itself: the second habit of that name meets a
        // unique violation, as when another server created it a moment earlier.
        let index = "CREATE UNIQUE INDEX habits_by_name ON habits (user_id, name)"
        if let database {
            try PostgresTestDatabase.psql(database.url, index)
        } else {
            let connection = try SQLiteConnection(
                path: harness.server.dataDirectory.appendingPathComponent(SQLiteStore.fileName).path
            )
            defer { connection.close() }
            try connection.execute(index)
        }
        let status = try harness.status(
            .createHabit,
            WireCreateHabitRequest.with {
                $0.name = name
                $0.createdOn = day("2024-01-01")
            }
        )
        #expect(status.code == .alreadyExists, "\(status)")
        #expect(!status.message.contains(name), "\(status.message)")
        let reference = try #require(status.message.firstMatch(of: /ref ([0-9a-f]{8})/)?.1)
        #expect(harness.server.stop() == 0)

        let log = harness.server.log
        #expect(!log.contains(name), "the log contains the habit name: \(log)")
        let line = log.split(separator: "\n").first { $0.contains(reference) && $0.contains("refused") }
        #expect(line?.contains(engine == .postgres ? "23505" : "2067") == true, "\(log)")
        #expect(line?.contains("habits_by_name") == (engine == .postgres), "\(log)")
    }
}
