import StreakCore
import Testing

/// Replacing a day's rows (what a server does with rows another server changed) gives the index
/// that indexing the new rows from scratch gives.
@Suite("Replacing days and habits in an index")
struct ReplaceDayTests {
    @Test("random days replaced: equal to the index built from the rows", arguments: [1, 2, 3, 4, 5])
    func randomReplacements(seed: UInt64) throws {
        var random = SplitMix64(seed: seed)
        let start = day("2024-01-01")
        let habits = try (1...4).map { id in
            try Habit(
                id: Int64(id),
                name: "h\(id)",
                createdOn: start.adding(days: Int(random.next() % 10)),
                archivedOn: id == 4 ? start.adding(days: 30) : nil
            )
        }
        // Per (habit, day): 0 nothing, 1 done, 2 skipped.
        var cells: [Int64: [Int: Int]] = [:]
        func rows() -> (completions: [Completion], skips: [Skip]) {
            var completions: [Completion] = []
            var skips: [Skip] = []
            for (habit, days) in cells {
                for (offset, state) in days {
                    let date = try! start.adding(days: offset)
                    if state == 1 { completions.append(Completion(habitID: habit, date: date)) }
                    if state == 2 { skips.append(Skip(habitID: habit, date: date)) }
                }
            }
            return (completions, skips)
        }
        for habit in habits {
            for offset in 0..<40 { cells[habit.id, default: [:]][offset] = Int(random.next() % 3) }
        }
        let initial = rows()
        var index = CompletionIndex(habits: habits, completions: initial.completions, skips: initial.skips)
        for _ in 0..<200 {
            let offset = Int(random.next() % 40)
            for habit in habits where random.next() % 2 == 0 { cells[habit.id]![offset] = Int(random.next() % 3) }
            let date = try start.adding(days: offset)
            let now = rows()
            let completed = Set(now.completions.filter { $0.date == date }.map(\.habitID))
            let skipped = Set(now.skips.filter { $0.date == date }.map(\.habitID))
            index.replaceDay(date, completed: completed, skipped: skipped)
            let fresh = CompletionIndex(habits: habits, completions: now.completions, skips: now.skips)
            #expect(index == fresh)
            let asOf = try start.adding(days: 45)
            #expect(
                StreakCalculator.summary(index, threshold: .atLeastOneHabit, asOf: asOf)
                    == StreakCalculator.summary(fresh, threshold: .atLeastOneHabit, asOf: asOf)
            )
        }
    }

    @Test("a day replaced by what it holds changes nothing; a habit in both lists is done")
    func unchangedAndBoth() {
        var index = CompletionIndex(
            habits: [Habit(id: 1, name: "a", createdOn: day("2024-01-01"))],
            completions: [Completion(habitID: 1, date: day("2024-01-02"))]
        )
        let before = index
        let unchanged = index.replaceDay(day("2024-01-02"), completed: [1], skipped: [])
        #expect(!unchanged && index == before)
        let changed = index.replaceDay(day("2024-01-03"), completed: [1], skipped: [1])
        #expect(changed)
        #expect(index.state(habitID: 1, on: day("2024-01-03")) == .done)
        #expect(index.dayNumbersWithRecords == [day("2024-01-02").dayNumber, day("2024-01-03").dayNumber])
    }

    @Test("habits replaced: windows and schedules follow, completions stay")
    func habits() throws {
        var index = CompletionIndex(
            habits: [Habit(id: 1, name: "a", createdOn: day("2024-01-01"))],
            completions: [
                Completion(habitID: 1, date: day("2024-01-05")), Completion(habitID: 2, date: day("2024-01-05")),
            ]
        )
        #expect(index.completedHabitIDs(on: day("2024-01-05")) == [1])
        let replaced = [
            try Habit(id: 1, name: "a", createdOn: day("2024-01-01"), archivedOn: day("2024-01-03")),
            Habit(id: 2, name: "b", createdOn: day("2024-01-01")),
        ]
        let first = index.replaceHabits(replaced)
        let second = index.replaceHabits(replaced.reversed())
        #expect(first && !second)
        #expect(index.completedHabitIDs(on: day("2024-01-05")) == [2])
        #expect(
            index
                == CompletionIndex(
                    habits: replaced,
                    completions: [
                        Completion(habitID: 1, date: day("2024-01-05")),
                        Completion(habitID: 2, date: day("2024-01-05")),
                    ]
                )
        )
    }
}
