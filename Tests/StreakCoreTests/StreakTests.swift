import StreakCore
import Testing

@Suite("Streaks")
struct StreakTests {
    static let habits: [(Int64, String)] = [(1, "2024-01-01"), (2, "2024-01-01")]

    @Test(
        "current streak with today's grace, and its start",
        arguments: [
            // completions, as of, current, start, pending
            (["1@2024-03-01", "1@2024-03-02", "1@2024-03-03"], "2024-03-03", 3, "2024-03-01", false),
            (["1@2024-03-01", "1@2024-03-02", "1@2024-03-03"], "2024-03-04", 3, "2024-03-01", true),
            (["1@2024-03-01", "1@2024-03-02", "1@2024-03-03"], "2024-03-05", 0, nil, false),
            (["1@2024-03-01", "1@2024-03-03"], "2024-03-03", 1, "2024-03-03", false),
            ([], "2024-03-03", 0, nil, false),
            (["1@2024-02-28", "1@2024-02-29", "2@2024-03-01"], "2024-03-01", 3, "2024-02-28", false),
            (["1@2024-03-01", "1@2024-03-02", "1@2024-03-05"], "2024-03-02", 2, "2024-03-01", false),
        ] as [([String], String, Int, String?, Bool)]
    )
    func current(completions: [String], asOf: String, expected: Int, start: String?, pending: Bool) {
        let summary = StreakCalculator.summary(index(habits: Self.habits, completions: completions), asOf: day(asOf))
        #expect(summary.current == expected)
        #expect(summary.currentStart == start.map(day))
        #expect(summary.todayPending == pending)
    }

    @Test("longest streak: a tie goes to the most recent run; days after as_of do not count")
    func longest() {
        let data = index(
            habits: Self.habits,
            completions: [
                "1@2024-01-01", "1@2024-01-02", "1@2024-01-03", "1@2024-01-10", "1@2024-01-11", "1@2024-01-12",
                "1@2024-01-20", "1@2024-01-21", "1@2024-01-22", "1@2024-01-23",
            ]
        )
        let tie = StreakCalculator.summary(data, asOf: day("2024-01-15"))
        #expect(tie.longest == 3)
        #expect(tie.longestStart == day("2024-01-10") && tie.longestEnd == day("2024-01-12"))
        let later = StreakCalculator.summary(data, asOf: day("2024-01-22"))
        #expect(later.longest == 3 && later.longestStart == day("2024-01-20") && later.current == 3)
        let all = StreakCalculator.summary(data, asOf: day("2024-02-01"))
        #expect(all.longest == 4 && all.current == 0 && all.currentStart == nil)
    }

    @Test("a threshold breaks the streak on days under it")
    func threshold() throws {
        let data = index(
            habits: Self.habits,
            completions: ["1@2024-03-01", "2@2024-03-01", "1@2024-03-02", "1@2024-03-03", "2@2024-03-03"]
        )
        let atLeastOne = StreakCalculator.summary(data, asOf: day("2024-03-03"))
        #expect(atLeastOne.current == 3)
        let full = StreakCalculator.summary(
            data,
            threshold: try StreakThreshold(minPercent: 100),
            asOf: day("2024-03-03")
        )
        #expect(full.current == 1 && full.longest == 1 && full.longestStart == day("2024-03-03"))
        let half = StreakCalculator.summary(
            data,
            threshold: try StreakThreshold(minPercent: 50),
            asOf: day("2024-03-03")
        )
        #expect(half.current == 3)
    }
}
