import Foundation
import StreakCore
import StreakFraming
import StreakTestSupport
import StreakWire
import Testing

/// Two real `streakd` processes sharing one PostgreSQL database: each sees the other's writes,
/// in its reads and its watch streams.
@Suite(.enabled(if: PostgresTestDatabase.serverURL != nil || PostgresTestDatabase.required))
struct SharedPostgresTests {
    @Test("a change committed on one server reaches the other's reads and watchers")
    func changesReachTheOtherServer() throws {
        let database = try PostgresTestDatabase()
        let first = try ServerProcess.start(extraArguments: ["--database-url", database.url])
        let second = try ServerProcess.start(extraArguments: ["--database-url", database.url])
        defer {
            _ = first.stop()
            _ = second.stop()
        }
        let maps = try ServerProcess.memoryMaps(of: first.pid)
        #expect(maps.contains("libpq"))
        // The first start created the local user; the second kept its token (no file of its own).
        let token = try #require(first.token)
        #expect(second.token == nil)
        let writer = try first.connect()
        let reader = try second.connect()
        let habit = try #require(
            try writer.call(
                .createHabit,
                WireCreateHabitRequest.with {
                    $0.name = "Read"
                    $0.createdOn = day("2024-01-01")
                },
                token: token,
                as: WireCreateHabitResponse.self
            ).habit
        )

        // The second server loads the user (habit included) and caches a streak, then watches.
        let before: WireGetStreakResponse = try reader.call(
            .getStreak,
            WireGetStreakRequest.with { $0.asOf = day("2024-01-10") },
            token: token
        )
        #expect(before.streak?.current == 0)
        let streamID = try reader.sendRequest(
            WireMethod.watch.rawValue,
            message: WireWatchRequest.with { $0.asOf = day("2024-01-10") }.serializedBytes(),
            token: token
        )
        _ = try reader.status(of: .ping, WirePingRequest(), token: nil)

        let _: WireCompletionResponse = try writer.call(
            .recordCompletion,
            WireRecordCompletionRequest.with {
                $0.habitId = habit.id
                $0.date = day("2024-01-10")
            },
            token: token
        )
        let frame = try #require(try reader.readFrame())
        guard case .streamMessage(let id, let bytes) = frame else {
            Issue.record("expected a stream message, got \(frame)")
            return
        }
        #expect(id == streamID)
        let event = try WireWatchEvent(serializedBytes: bytes)
        #expect(event.day?.date == day("2024-01-10") && event.day?.completed == 1)
        #expect(event.streak?.current == 1)

        // The event came after the reload: the second server's reads (cached before) agree.
        let after: WireGetStreakResponse = try reader.call(
            .getStreak,
            WireGetStreakRequest.with { $0.asOf = day("2024-01-10") },
            token: token
        )
        #expect(after.streak?.current == 1)

        // A habit renamed on the second server is renamed on the first.
        let _: WireRenameHabitResponse = try reader.call(
            .renameHabit,
            WireRenameHabitRequest.with {
                $0.habitId = habit.id
                $0.name = "Read more"
            },
            token: token
        )
        let deadline = ContinuousClock.now + .seconds(10)
        var names: [String] = []
        repeat {
            let list: WireListHabitsResponse = try writer.call(.listHabits, WireListHabitsRequest(), token: token)
            names = list.habits.map(\.name)
        } while names != ["Read more"] && ContinuousClock.now < deadline
        #expect(names == ["Read more"])
    }
}
