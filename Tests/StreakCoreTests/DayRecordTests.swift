import StreakCore
import Testing

@Suite("Percentages, levels and the streak threshold")
struct DayRecordTests {
    @Test(
        "percentage shown: half up, clamped to 1 and 99, 0 with nothing active",
        arguments: [
            (0, 0, 0), (0, 5, 0), (1, 3, 33), (1, 2, 50), (2, 3, 67), (199, 200, 99), (1, 200, 1), (1, 1000, 1),
            (5, 5, 100), (4, 5, 80), (1, 8, 13), (3, 8, 38),
        ]
    )
    func percentage(completed: Int, active: Int, expected: Int) {
        #expect(Percentage.shown(completed: completed, active: active) == expected)
    }

    @Test(
        "level by exact comparison",
        arguments: [
            (0, 0, IntensityLevel.none), (0, 3, .none), (1, 3, .light), (1, 2, .medium), (2, 3, .medium),
            (199, 200, .medium), (1, 200, .light), (3, 3, .full), (2, 4, .medium), (1, 4, .light),
        ]
    )
    func level(completed: Int, active: Int, expected: IntensityLevel) {
        #expect(IntensityLevel(completed: completed, active: active) == expected)
    }

    @Test(
        "contributing: one habit by default, else the minimum percentage",
        arguments: [
            (nil, 1, 5, true), (nil, 0, 5, false), (60, 3, 5, true), (60, 2, 5, false), (100, 4, 5, false),
            (100, 5, 5, true), (50, 1, 2, true),
            // 1 of 200 is shown as 1% but is 0.5%: the rule compares exactly, so it does not reach 1%.
            (1, 1, 200, false), (1, 2, 200, true),
        ] as [(Int?, Int, Int, Bool)]
    )
    func contributing(minPercent: Int?, completed: Int, active: Int, expected: Bool) throws {
        #expect(
            try StreakThreshold(minPercent: minPercent).contributes(completed: completed, active: active) == expected
        )
    }

    @Test("a threshold outside 1...100 is refused", arguments: [0, 101, -5])
    func badThreshold(value: Int) {
        #expect(throws: CoreError.self) { try StreakThreshold(minPercent: value) }
    }

    @Test("a habit added later leaves past percentages unchanged; archiving keeps history")
    func laterHabit() throws {
        var data = index(
            habits: [(1, "2024-01-01"), (2, "2024-01-01")],
            completions: ["1@2024-03-05", "2@2024-03-05", "1@2024-03-06"]
        )
        let before = data.record(on: day("2024-03-05"))
        data.upsert(Habit(id: 3, name: "new", createdOn: day("2024-03-10")))
        #expect(data.record(on: day("2024-03-05")) == before)
        #expect(before.percentage == 100 && before.level == .full)
        #expect(data.record(on: day("2024-03-10")).active == 3)
        data.upsert(try Habit(id: 1, name: "habit 1", createdOn: day("2024-01-01"), archivedOn: day("2024-03-06")))
        #expect(data.record(on: day("2024-03-05")) == before)
        #expect(data.record(on: day("2024-03-06")).active == 1)
        #expect(data.record(on: day("2024-03-06")).completed == 0)
    }

    @Test("recording twice counts once; removing restores the day")
    func idempotent() {
        var data = index(habits: [(1, "2024-01-01")], completions: [])
        let date = day("2024-02-02")
        let first = data.record(habitID: 1, date: date)
        let second = data.record(habitID: 1, date: date)
        #expect(first && !second)
        #expect(data.record(on: date).completed == 1)
        let removed = data.remove(habitID: 1, date: date)
        let removedAgain = data.remove(habitID: 1, date: date)
        #expect(removed && !removedAgain)
        #expect(data.daysWithCompletions.isEmpty)
    }

    @Test(
        "day detail label",
        arguments: [(4, 5, "March 5: 80% completed, 4 of 5 habits"), (1, 1, "March 5: 100% completed, 1 of 1 habit")]
    )
    func detail(completed: Int, active: Int, expected: String) {
        let habits = (1...Int64(active)).map { ($0, "2024-01-01") }
        let done = (1...completed).map { "\($0)@2024-03-05" }
        let detail = DayDetail(index(habits: habits, completions: done), date: day("2024-03-05"))
        #expect(detail.accessibilityLabel == expected)
        #expect(detail.completedHabits.map(\.id) == Array(1...Int64(completed)))
    }
}
