import Foundation
import StreakCore
import StreakFraming
import StreakTestSupport
import StreakWire
import Testing

/// Lifecycle Watch events across two `streakd` processes sharing one PostgreSQL database.
@Suite(.enabled(if: PostgresTestDatabase.serverURL != nil || PostgresTestDatabase.required))
struct SharedPostgresWatchTests {
    @Test("a settings change on one server reaches the other's lifecycle watchers")
    func settingsChangeReachesTheOtherServer() throws {
        let database = try PostgresTestDatabase()
        let arguments = ["--database-url", database.url]
        let first = try ServerProcess.start(extraArguments: arguments)
        defer { _ = first.stop() }
        let second = try ServerProcess.start(extraArguments: arguments)
        defer { _ = second.stop() }
        let token = try #require(first.token)
        let writer = try first.connect()
        let reader = try second.connect()
        let habit = try writer.call(
            .createHabit,
            WireCreateHabitRequest.with {
                $0.name = "Read"
                $0.createdOn = day("2024-01-01")
            },
            token: token,
            as: WireCreateHabitResponse.self
        ).habit
        let _: WireCompletionResponse = try writer.call(
            .recordCompletion,
            WireRecordCompletionRequest.with {
                $0.habitId = habit?.id ?? 0
                $0.date = day("2024-01-10")
            },
            token: token
        )

        let watch = try EventStream(second, token: token, asOf: day("2024-01-10"), lifecycle: true)
        #expect(try watch.next().kind == .subscribed)
        let _: WireUpdateSettingsResponse = try writer.call(
            .updateSettings,
            WireUpdateSettingsRequest.with { $0.minPercent = 100 },
            token: token
        )
        let event = try watch.next()
        #expect(event.kind == .settingsChanged)
        #expect(event.day == nil)
        let streak: WireGetStreakResponse = try reader.call(
            .getStreak,
            WireGetStreakRequest.with { $0.asOf = day("2024-01-10") },
            token: token
        )
        #expect(event.streak == streak.streak && streak.streak?.current == 1)
        let settings: WireGetSettingsResponse = try reader.call(.getSettings, WireGetSettingsRequest(), token: token)
        #expect(settings.settings?.minPercent == 100)
    }
}
