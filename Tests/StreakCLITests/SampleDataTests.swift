import StreakCLI
import StreakCore
import Testing

@Suite("Sample data (no server)")
struct SampleDataTests {
    @Test func sampleDataIsReproducibleAndPlausible() throws {
        let today = Fixtures.date("2025-06-15")
        let first = SampleData(seed: 7, today: today)
        #expect(first == SampleData(seed: 7, today: today))
        #expect(first != SampleData(seed: 8, today: today))
        #expect(first.habits.count == 5)
        for habit in first.habits {
            #expect(habit.completions.allSatisfy { habit.createdOn <= $0 && $0 <= today })
            #expect(habit.completions == habit.completions.sorted())
        }
        let days = Set(first.habits.flatMap(\.completions))
        #expect(days.count > 200)
        for offset in 0..<12 {
            #expect(days.contains(try today.adding(days: -offset)))
        }
    }
}
