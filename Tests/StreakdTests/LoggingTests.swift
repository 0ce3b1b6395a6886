import Foundation
import StreakCore
import StreakFraming
import StreakTestSupport
import StreakWire
import Testing

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
}
