import Testing

@testable import StreakCore

/// `HabitDayList`: the index's completions and skips by habit id, then day, unchanged by later writes.
@Suite("Completions and skips by habit")
struct HabitDayListTests {
    @Test("holds every completion and skip once, by habit id then day, as it was when made")
    func byHabitThenDay() throws {
        var random = SplitMix64(seed: 7)
        let first = try CivilDate(year: 1999, month: 12, day: 20)
        let habits = [Int64(2), 5, 900, -3].map { Habit(id: $0, name: "h\($0)", createdOn: first) }
        var completions: [Completion] = []
        for _ in 0..<2_000 {
            let habit = habits[Int(random.next() % UInt64(habits.count))]
            completions.append(
                Completion(habitID: habit.id, date: try first.adding(days: Int(random.next() % 3_000)))
            )
        }
        completions.append(Completion(habitID: 77, date: first))  // a habit the user does not have
        var index = CompletionIndex(habits: habits, completions: completions.shuffled(using: &random))
        let skips = try (0..<50).map { Skip(habitID: 5, date: try first.adding(days: 4_000 + $0 * 3)) }
        for skip in skips.reversed() { index.skip(habitID: skip.habitID, date: skip.date) }

        let byHabit = index.completionsByHabit
        let expected = Set(completions).sorted { ($0.habitID, $0.date) < ($1.habitID, $1.date) }
        #expect(byHabit.count == expected.count)
        #expect(byHabit.map { Completion(habitID: $0.habitID, date: $0.date) } == expected)
        #expect(index.skipsByHabit.map { Skip(habitID: $0.habitID, date: $0.date) } == skips)

        // A copy: what the index records later is not in it.
        index.record(habitID: 2, date: try first.adding(days: 5_000))
        #expect(byHabit.count == expected.count)
        #expect(CompletionIndex(habits: [], completions: []).completionsByHabit.isEmpty)
    }
}
