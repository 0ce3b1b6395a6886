import Testing

@testable import StreakCore

@Suite("Habit histories")
struct HabitHistoryTests {
    @Test("the first day is created_on, else the earliest completion or skip, else none (today)")
    func firstDay() {
        let records = HabitHistory(name: "h", completions: [day("2024-03-07")], skips: [day("2024-03-05")])
        #expect(records.firstDay == day("2024-03-05"))
        var created = records
        created.createdOn = day("2024-03-09")
        #expect(created.firstDay == day("2024-03-09"))
        #expect(HabitHistory(name: "h").firstDay == nil)
    }
}
