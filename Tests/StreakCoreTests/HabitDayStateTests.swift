import StreakCore
import Testing

@Suite("Per habit and day: done, skipped or nothing")
struct HabitDayStateTests {
    @Test(
        "every transition: completing a skipped day makes it done, skipping a done day removes the completion",
        arguments: [
            (HabitDayState.nothing, HabitDayAction.complete, HabitDayState.done), (.skipped, .complete, .done),
            (.done, .complete, .done), (.nothing, .skip, .skipped), (.done, .skip, .skipped),
            (.skipped, .skip, .skipped), (.done, .uncomplete, .nothing), (.skipped, .uncomplete, .skipped),
            (.nothing, .uncomplete, .nothing), (.skipped, .unskip, .nothing), (.done, .unskip, .done),
            (.nothing, .unskip, .nothing),
        ]
    )
    func transition(before: HabitDayState, action: HabitDayAction, after: HabitDayState) {
        #expect(before.applying(action) == after)
        // The index applies the same rule, keeping one state per habit and day.
        var data = index(habits: [habit(1)], completions: [])
        switch before {
        case .done: data.record(habitID: 1, date: day("2024-03-05"))
        case .skipped: data.skip(habitID: 1, date: day("2024-03-05"))
        case .nothing: break
        }
        #expect(data.state(habitID: 1, on: day("2024-03-05")) == before)
        let change = data.apply(action, habitID: 1, date: day("2024-03-05"))
        #expect(change.before == before && change.after == after)
        #expect(data.state(habitID: 1, on: day("2024-03-05")) == after)
        #expect(data.completedHabitIDs(on: day("2024-03-05")) == (after == .done ? [1] : []))
        #expect(data.skippedHabitIDs(on: day("2024-03-05")) == (after == .skipped ? [1] : []))
    }

    @Test("a completion and a skip of the same habit and day given together: the day is done")
    func doneWins() {
        let data = index(habits: [habit(1)], completions: ["1@2024-03-05"], skips: ["1@2024-03-05", "1@2024-03-06"])
        #expect(data.state(habitID: 1, on: day("2024-03-05")) == .done)
        #expect(data.skips == [Skip(habitID: 1, date: day("2024-03-06"))])
    }

    @Test(
        "a skip needs a known habit active that day",
        arguments: [
            (Int64(1), "2024-03-05", nil),
            (1, "2023-12-31", "habit 1 is not active on 2023-12-31, so it cannot be skipped"),
            (1, "2024-06-01", "habit 1 is not active on 2024-06-01, so it cannot be skipped"),
            (9, "2024-03-05", "no habit with id 9"),
        ] as [(Int64, String, String?)]
    )
    func validation(habitID: Int64, date: String, error: String?) throws {
        let archived = try Habit(id: 1, name: "h", createdOn: day("2024-01-01"), archivedOn: day("2024-06-01"))
        let data = index(habits: [archived], completions: [])
        guard let error else {
            #expect(throws: Never.self) { try data.validateSkip(habitID: habitID, date: day(date)) }
            return
        }
        let thrown = #expect(throws: CoreError.self) { try data.validateSkip(habitID: habitID, date: day(date)) }
        #expect(thrown?.message == error)
        #expect(thrown?.code == (habitID == 9 ? .notFound : .invalidArgument))
    }
}
