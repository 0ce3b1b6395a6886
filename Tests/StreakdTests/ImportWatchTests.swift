import Foundation
import StreakCore
import StreakTestSupport
import StreakWire
import Testing

/// ImportData's Watch events: every day whose record changed (as GetDay shows it), and only those,
/// on the server that took the import and on every other server sharing its PostgreSQL database.
@Suite struct ImportWatchTests {
    @Test("ImportData sends the days whose record changed (SQLite)")
    func importEventsOnSQLite() throws {
        let server = try ServerProcess.start()
        defer {
            server.stop()
            server.removeDataDirectory()
        }
        try expectImportEvents(on: [server], token: try #require(server.token))
    }

    @Test(
        "ImportData sends the days whose record changed, on the writing server and another (PostgreSQL)",
        .enabled(if: PostgresTestDatabase.serverURL != nil || PostgresTestDatabase.required)
    )
    func importEventsOnPostgres() throws {
        let database = try PostgresTestDatabase()
        let arguments = ["--database-url", database.url]
        let first = try ServerProcess.start(extraArguments: arguments)
        defer {
            first.stop()
            first.removeDataDirectory()
        }
        let second = try ServerProcess.start(extraArguments: arguments)
        defer {
            second.stop()
            second.removeDataDirectory()
        }
        try expectImportEvents(on: [first, second], token: try #require(first.token))
    }

    /// Imports through the first of `servers` while each of them has a Watch open: after each
    /// import every stream has the days whose GetDay record changed, no more and no fewer.
    private func expectImportEvents(on servers: [ServerProcess], token: String) throws {
        let writer = try servers[0].connect()
        let now: WireGetStreakResponse = try writer.call(.getStreak, WireGetStreakRequest(), token: token)
        let today = try #require(now.streak?.asOf)
        func ago(_ days: Int) throws -> CivilDate { try today.adding(days: -days) }
        let _: WireCreateHabitResponse = try writer.call(
            .createHabit,
            WireCreateHabitRequest.with {
                $0.name = "Base"
                $0.createdOn = try? ago(20)
            },
            token: token
        )
        // Every server holds the user (and has its token cached) before its Watch opens.
        for server in servers {
            let _: WireListHabitsResponse = try server.connect().call(
                .listHabits,
                WireListHabitsRequest(),
                token: token
            )
        }
        let watchers = try servers.map { try WatchedDays(on: $0, token: token) }
        defer { for watcher in watchers { watcher.stop() } }
        let window = try (0...25).map { try ago(25 - $0) }
        // What a WatchEvent carries of a day (GetDay's detail also names the habits, with their
        // archive days and schedules, which change no day's record).
        func records() throws -> [String] {
            try window.map { date in
                let answer: WireGetDayResponse = try writer.call(.getDay, WireGetDayRequest(date: date), token: token)
                let day = try #require(answer.day)
                return "\(day.completedHabits.map(\.id)) \(day.skippedHabits.map(\.id)) \(day.completed)/\(day.active)"
                    + " due \(day.due) rest \(day.rest) \(day.percent)% level \(day.level) \(day.contributing)"
            }
        }
        func expectEvents(_ title: String, changing: Bool = true, _ request: WireImportDataRequest) throws {
            for watcher in watchers { watcher.clear() }
            let before = try records()
            let _: WireImportDataResponse = try writer.call(.importData, request, token: token)
            let after = try records()
            let changed = zip(window, zip(before, after)).filter { $1.0 != $1.1 }.map(\.0)
            #expect(changed.isEmpty != changing, "\(title): days whose record changed: \(changed)")
            let deadline = ContinuousClock.now + .seconds(10)
            while ContinuousClock.now < deadline && watchers.contains(where: { $0.days != changed }) {
                usleep(20_000)
            }
            usleep(300_000)  // events beyond those
            for (index, watcher) in watchers.enumerated() {
                #expect(
                    watcher.days == changed,
                    "\(title), server \(index): events \(watcher.days), days whose record changed \(changed)"
                )
            }
        }
        try expectEvents(
            "a new habit from a past day",
            WireImportDataRequest(habits: [
                WireImportHabit.with {
                    $0.name = "Imported"
                    $0.createdOn = try? ago(10)
                    $0.completions = [try ago(7)]
                }
            ])
        )
        let archive = WireImportDataRequest(habits: [
            WireImportHabit.with {
                $0.name = "Imported"
                $0.archivedOn = try? ago(5)
            }
        ])
        try expectEvents("an archive day", archive)
        try expectEvents("the same archive day again", changing: false, archive)
        // Base is due on every weekday but those of two days ago and three days ago from eight
        // days ago; a rest period on two days the imported habit is due; a completion and a skip
        // of Base on days it is due.
        let excluded: Set<Weekday> = [try ago(2).weekday, try ago(3).weekday]
        try expectEvents(
            "a schedule",
            WireImportDataRequest(habits: [
                WireImportHabit.with {
                    $0.name = "Base"
                    $0.schedule = [
                        WireScheduleEntry(
                            effectiveFrom: try ago(8),
                            weekdays: Weekday.allCases.filter { !excluded.contains($0) }
                        )
                    ]
                }
            ])
        )
        try expectEvents(
            "a rest period",
            WireImportDataRequest(restPeriods: [WireRestPeriod(from: try ago(7), to: try ago(6))])
        )
        try expectEvents(
            "a completion and a skip",
            WireImportDataRequest(habits: [
                WireImportHabit.with {
                    $0.name = "Base"
                    $0.completions = [try ago(1)]
                    $0.skips = [try ago(4)]
                }
            ])
        )
    }
}
