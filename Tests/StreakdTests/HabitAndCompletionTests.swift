import StreakCore
import StreakFraming
import StreakTestSupport
import StreakWire
import Testing

/// Habits and completions through the real server, checked against docs/RULES.md.
@Suite struct HabitAndCompletionTests {
    @Test func createListRenameArchive() throws {
        let harness = try ServerHarness()
        defer { harness.finish() }
        let read = try harness.createHabit("Read", on: day("2024-03-01"))
        let run = try harness.createHabit("Run", on: day("2024-03-02"))
        #expect(read.id > 0 && run.id > read.id)
        #expect(read.name == "Read" && read.createdOn == day("2024-03-01") && read.archivedOn == nil)

        let renamed: WireRenameHabitResponse = try harness.call(
            .renameHabit,
            WireRenameHabitRequest.with {
                $0.habitId = run.id
                $0.name = "Jog"
            }
        )
        #expect(renamed.habit?.name == "Jog")
        let archived: WireArchiveHabitResponse = try harness.call(
            .archiveHabit,
            WireArchiveHabitRequest.with {
                $0.habitId = run.id
                $0.archivedOn = day("2024-03-10")
            }
        )
        #expect(archived.habit?.archivedOn == day("2024-03-10"))

        let live: WireListHabitsResponse = try harness.call(.listHabits, WireListHabitsRequest())
        #expect(live.habits.map(\.id) == [read.id])
        let all: WireListHabitsResponse = try harness.call(
            .listHabits,
            WireListHabitsRequest.with {
                $0.includeArchived = true
            }
        )
        #expect(all.habits.map(\.id) == [read.id, run.id])
        #expect(all.habits.last?.name == "Jog")
    }

    @Test func badNamesAndUnknownHabits() throws {
        let harness = try ServerHarness()
        defer { harness.finish() }
        let empty = try harness.status(.createHabit, WireCreateHabitRequest.with { $0.createdOn = day("2024-01-01") })
        #expect(empty.code == .invalidArgument)
        let long = try harness.status(
            .createHabit,
            WireCreateHabitRequest.with {
                $0.name = String(repeating: "x", count: 201)
            }
        )
        #expect(long.code == .invalidArgument)
        let rename = try harness.status(
            .renameHabit,
            WireRenameHabitRequest.with {
                $0.habitId = 999
                $0.name = "x"
            }
        )
        #expect(rename.code == .notFound)
        let record = try harness.status(
            .recordCompletion,
            WireRecordCompletionRequest.with {
                $0.habitId = 999
                $0.date = day("2024-01-01")
            }
        )
        #expect(record.code == .notFound)
    }

    @Test func recordAndRemoveAnswerTheDayAndTheStreak() throws {
        let harness = try ServerHarness()
        defer { harness.finish() }
        let ids = try (1...5).map { try harness.createHabit("habit \($0)", on: day("2024-03-01")).id }
        // 03-03: 5 of 5, 03-04: 1 of 5, 03-05: 4 of 5.
        for id in ids { try harness.record(id, day("2024-03-03")) }
        try harness.record(ids[0], day("2024-03-04"))
        var last = WireCompletionResponse()
        for id in ids.prefix(4) { last = try harness.record(id, day("2024-03-05"), asOf: day("2024-03-06")) }
        let record = try #require(last.day)
        #expect(last.changed)
        #expect(record.date == day("2024-03-05"))
        #expect(record.completedHabitIds == Array(ids.prefix(4)))
        #expect(record.completed == 4 && record.active == 5 && record.percent == 80 && record.level == 2)
        #expect(record.contributing)
        let streak = try #require(last.streak)
        #expect(streak.asOf == day("2024-03-06"))
        #expect(streak.current == 3 && streak.currentStart == day("2024-03-03") && streak.todayPending)
        #expect(
            streak.longest == 3 && streak.longestStart == day("2024-03-03") && streak.longestEnd == day("2024-03-05")
        )

        // Recording twice counts once.
        let again = try harness.record(ids[0], day("2024-03-05"), asOf: day("2024-03-06"))
        #expect(!again.changed && again.day?.completed == 4)

        // 1 of 5: level 1, 20 %.
        let one = try harness.record(ids[0], day("2024-03-04"))
        #expect(one.day?.percent == 20 && one.day?.level == 1)

        let removed: WireCompletionResponse = try harness.call(
            .removeCompletion,
            WireRemoveCompletionRequest.with {
                $0.habitId = ids[0]
                $0.date = day("2024-03-04")
                $0.asOf = day("2024-03-05")
            }
        )
        #expect(
            removed.changed && removed.day?.completed == 0 && removed.day?.level == 0
                && removed.day?.contributing == false
        )
        #expect(removed.streak?.current == 1 && removed.streak?.currentStart == day("2024-03-05"))
        #expect(removed.streak?.todayPending == false)
        let removedAgain: WireCompletionResponse = try harness.call(
            .removeCompletion,
            WireRemoveCompletionRequest.with {
                $0.habitId = ids[0]
                $0.date = day("2024-03-04")
            }
        )
        #expect(!removedAgain.changed)
    }

    @Test(arguments: [(1, 3, 33, 1), (2, 3, 67, 2), (3, 3, 100, 3)])
    func percentRoundsHalfUpAndLevelsFollowTheRules(completed: Int, active: Int, percent: Int32, level: Int32) throws {
        let harness = try ServerHarness()
        defer { harness.finish() }
        let ids = try (0..<active).map { try harness.createHabit("h\($0)", on: day("2024-01-01")).id }
        var answer = WireCompletionResponse()
        for id in ids.prefix(completed) { answer = try harness.record(id, day("2024-01-10")) }
        #expect(answer.day?.percent == percent && answer.day?.level == level)
    }

    @Test func batchCompletionsAreAllOrNothing() throws {
        let harness = try ServerHarness()
        defer { harness.finish() }
        let a = try harness.createHabit("a", on: day("2024-01-01")).id
        let b = try harness.createHabit("b", on: day("2024-01-01")).id
        let batch: WireBatchCompletionsResponse = try harness.call(
            .batchCompletions,
            WireBatchCompletionsRequest.with {
                $0.record = [
                    WireCompletion.with {
                        $0.habitId = a
                        $0.date = day("2024-01-03")
                    },
                    WireCompletion.with {
                        $0.habitId = b
                        $0.date = day("2024-01-02")
                    },
                    WireCompletion.with {
                        $0.habitId = a
                        $0.date = day("2024-01-02")
                    },
                ]
                $0.remove = [
                    WireCompletion.with {
                        $0.habitId = a
                        $0.date = day("2024-01-03")
                    }
                ]
                $0.asOf = day("2024-01-03")
            }
        )
        #expect(batch.changed == 4)
        #expect(batch.days.map(\.date) == [day("2024-01-02"), day("2024-01-03")])
        #expect(batch.days.map(\.completed) == [2, 0])
        #expect(batch.streak?.current == 1 && batch.streak?.todayPending == true)

        // One unknown habit: nothing of the batch is applied.
        let status = try harness.status(
            .batchCompletions,
            WireBatchCompletionsRequest.with {
                $0.record = [
                    WireCompletion.with {
                        $0.habitId = a
                        $0.date = day("2024-01-05")
                    },
                    WireCompletion.with {
                        $0.habitId = 12345
                        $0.date = day("2024-01-05")
                    },
                ]
            }
        )
        #expect(status.code == .notFound)
        let dayAnswer: WireGetDayResponse = try harness.call(
            .getDay,
            WireGetDayRequest.with {
                $0.date = day("2024-01-05")
            }
        )
        #expect(dayAnswer.day?.completed == 0)
    }
}
