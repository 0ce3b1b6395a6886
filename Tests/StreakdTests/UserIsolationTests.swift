import Foundation
import StreakCore
import StreakFraming
import StreakTestSupport
import StreakWire
import Testing

/// Two users: B can neither read nor change A's habits and days, whatever the method.
@Suite struct UserIsolationTests {
    @Test func usersCannotSeeOrChangeEachOthersData() throws {
        let harness = try ServerHarness()
        defer { harness.finish() }
        let a = try harness.createHabit("private", on: day("2024-01-01"))
        for date in ["2024-01-01", "2024-01-02", "2024-01-03"] { try harness.record(a.id, day(date)) }
        let add = try ServerProcess.run(["user", "add", "bob", "--data-dir", harness.server.dataDirectory.path])
        #expect(add.status == 0)
        let bob = add.output.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(bob.hasPrefix("stk_") && bob.count == 68 && add.output.filter { $0 == "\n" }.count == 1)
        let connection = harness.connection

        // Reads as B show none of A's habits or completions.
        let list: WireListHabitsResponse = try connection.call(
            .listHabits,
            WireListHabitsRequest.with { $0.includeArchived = true },
            token: bob
        )
        #expect(list.habits.isEmpty)
        let dayAnswer: WireGetDayResponse = try connection.call(
            .getDay,
            WireGetDayRequest.with { $0.date = day("2024-01-02") },
            token: bob
        )
        #expect(dayAnswer.day?.completed == 0 && dayAnswer.day?.completedHabits.isEmpty == true)
        let heatmap: WireGetHeatmapResponse = try connection.call(
            .getHeatmap,
            WireGetHeatmapRequest.with {
                $0.from = day("2024-01-01")
                $0.to = day("2024-01-07")
                $0.asOf = day("2024-01-07")
            },
            token: bob
        )
        let cells = heatmap.heatmap?.weeks.flatMap(\.cells).filter(\.present) ?? []
        #expect(!cells.isEmpty && cells.allSatisfy { $0.completed == 0 && $0.level == 0 })
        let streak: WireGetStreakResponse = try connection.call(
            .getStreak,
            WireGetStreakRequest.with { $0.asOf = day("2024-01-03") },
            token: bob
        )
        #expect(streak.streak?.current == 0 && streak.streak?.longest == 0)
        let page: WireGetMonthPageResponse = try connection.call(
            .getMonthPage,
            WireGetMonthPageRequest.with {
                $0.year = 2024
                $0.month = 1
                $0.asOf = day("2024-01-31")
            },
            token: bob
        )
        let days = page.page?.days ?? []
        #expect(days.count == 42 && days.allSatisfy { !$0.highlighted && $0.level == 0 })

        // Writes as B on A's habit id are NOT_FOUND, whichever method.
        let completion = WireCompletion.with {
            $0.habitId = a.id
            $0.date = day("2024-01-04")
        }
        let refused: [(WireMethod, any WireMessage)] = [
            (
                .renameHabit,
                WireRenameHabitRequest.with {
                    $0.habitId = a.id
                    $0.name = "mine now"
                }
            ),
            (.archiveHabit, WireArchiveHabitRequest.with { $0.habitId = a.id }),
            (
                .recordCompletion,
                WireRecordCompletionRequest.with {
                    $0.habitId = a.id
                    $0.date = day("2024-01-04")
                }
            ),
            (
                .removeCompletion,
                WireRemoveCompletionRequest.with {
                    $0.habitId = a.id
                    $0.date = day("2024-01-02")
                }
            ),
            (.batchCompletions, WireBatchCompletionsRequest.with { $0.record = [completion] }),
            (.batchCompletions, WireBatchCompletionsRequest.with { $0.remove = [completion] }),
        ]
        for (method, request) in refused {
            let status = try connection.rawCall(method.rawValue, message: request.serializedBytes(), token: bob).status
            #expect(status.code == .notFound, "\(method) as B on A's habit: \(status)")
        }

        // B's Watch hears nothing of A's writes: a ping sent after A's write is answered first.
        let watch = try harness.server.connect()
        let stream = try watch.sendRequest(WireMethod.watch.rawValue, message: [], token: bob)
        _ = try watch.awaitResponse(try watch.sendRequest(WireMethod.ping.rawValue, message: [], token: nil))
        try harness.record(a.id, day("2024-01-05"))
        let ping = try watch.sendRequest(WireMethod.ping.rawValue, message: [], token: nil)
        let next = try #require(try watch.readFrame())
        #expect(next.isResponseFrame(id: ping), "B's stream \(stream) got \(next)")

        // A's data is unchanged.
        let mine: WireListHabitsResponse = try harness.call(.listHabits, WireListHabitsRequest())
        #expect(mine.habits.map(\.name) == ["private"])
        let myDay: WireGetDayResponse = try harness.call(
            .getDay,
            WireGetDayRequest.with { $0.date = day("2024-01-02") }
        )
        #expect(myDay.day?.completed == 1)
        let myStreak: WireGetStreakResponse = try harness.call(
            .getStreak,
            WireGetStreakRequest.with { $0.asOf = day("2024-01-05") }
        )
        #expect(myStreak.streak?.longest == 3)
    }
}
