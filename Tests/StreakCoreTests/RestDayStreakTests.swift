import StreakCore
import Testing

/// A streak scenario: the data, "as of", and the summary expected.
struct RestStreakCase: Sendable, CustomTestStringConvertible {
    var name: String
    var habits: [Habit] = [habit(1, created: "2024-03-01")]
    var completions: [String]
    var skips: [String] = []
    var rest: [String] = []
    var asOf: String
    var minPercent: Int? = nil
    /// current, its start, pending, longest, its start and end.
    var expected: (Int, String?, Bool, Int, String?, String?)
    var testDescription: String { name }
}

@Suite("Streaks that bridge rest days")
struct RestDayStreakTests {
    static let cases: [RestStreakCase] = [
        RestStreakCase(
            name: "the rule's example: done 1st, 2nd; skip 3rd, 4th; done 5th; as of the 6th",
            completions: ["1@2024-03-01", "1@2024-03-02", "1@2024-03-05"],
            skips: ["1@2024-03-03", "1@2024-03-04"],
            asOf: "2024-03-06",
            expected: (3, "2024-03-01", true, 3, "2024-03-01", "2024-03-05")
        ),
        RestStreakCase(
            name: "the example as of the 5th",
            completions: ["1@2024-03-01", "1@2024-03-02", "1@2024-03-05"],
            skips: ["1@2024-03-03", "1@2024-03-04"],
            asOf: "2024-03-05",
            expected: (3, "2024-03-01", false, 3, "2024-03-01", "2024-03-05")
        ),
        RestStreakCase(
            name: "as of a rest day: the run before it is kept, pending",
            completions: ["1@2024-03-01", "1@2024-03-02", "1@2024-03-05"],
            skips: ["1@2024-03-03", "1@2024-03-04"],
            asOf: "2024-03-04",
            expected: (2, "2024-03-01", true, 2, "2024-03-01", "2024-03-02")
        ),
        RestStreakCase(
            name: "a missed day between the last contributing day and as of breaks it",
            completions: ["1@2024-03-01", "1@2024-03-02", "1@2024-03-05"],
            skips: ["1@2024-03-03", "1@2024-03-04"],
            asOf: "2024-03-07",
            expected: (0, nil, false, 3, "2024-03-01", "2024-03-05")
        ),
        RestStreakCase(
            name: "a rest period bridges a week",
            completions: ["1@2024-03-01", "1@2024-03-02", "1@2024-03-10"],
            rest: ["2024-03-03..2024-03-09"],
            asOf: "2024-03-11",
            expected: (3, "2024-03-01", true, 3, "2024-03-01", "2024-03-10")
        ),
        RestStreakCase(
            name: "a rest period running up to as of keeps the streak",
            completions: ["1@2024-03-01", "1@2024-03-02"],
            rest: ["2024-03-03..2024-03-20"],
            asOf: "2024-03-20",
            expected: (2, "2024-03-01", true, 2, "2024-03-01", "2024-03-02")
        ),
        RestStreakCase(
            name: "Monday, Wednesday, Friday: the weekend and the days between are rest days",
            habits: [habit(1, created: "2024-03-01", schedule: [("2024-03-01", [2, 4, 6])])],
            completions: ["1@2024-03-04", "1@2024-03-06", "1@2024-03-08"],
            asOf: "2024-03-11",
            expected: (3, "2024-03-04", true, 3, "2024-03-04", "2024-03-08")
        ),
        RestStreakCase(
            name: "Monday, Wednesday, Friday: a missed Monday breaks it",
            habits: [habit(1, created: "2024-03-01", schedule: [("2024-03-01", [2, 4, 6])])],
            completions: ["1@2024-03-04", "1@2024-03-06", "1@2024-03-08"],
            asOf: "2024-03-12",
            expected: (0, nil, false, 3, "2024-03-04", "2024-03-08")
        ),
        RestStreakCase(
            name: "a run never starts on a rest day",
            completions: ["1@2024-03-02", "1@2024-03-03"],
            skips: ["1@2024-03-01"],
            asOf: "2024-03-03",
            expected: (2, "2024-03-02", false, 2, "2024-03-02", "2024-03-03")
        ),
        RestStreakCase(
            name: "a day with nothing active still breaks (it is not a rest day)",
            habits: [
                try! Habit(id: 1, name: "a", createdOn: day("2024-03-01"), archivedOn: day("2024-03-03")),
                habit(2, created: "2024-03-04"),
            ],
            completions: ["1@2024-03-01", "1@2024-03-02", "2@2024-03-04"],
            rest: ["2024-03-03..2024-03-03"],
            asOf: "2024-03-04",
            expected: (1, "2024-03-04", false, 2, "2024-03-01", "2024-03-02")
        ),
        RestStreakCase(
            name: "ties go to the most recent run, rest days not counted",
            completions: ["1@2024-03-01", "1@2024-03-02", "1@2024-03-05", "1@2024-03-07"],
            skips: ["1@2024-03-06"],
            rest: ["2024-03-08..2024-03-09"],
            asOf: "2024-03-12",
            expected: (0, nil, false, 2, "2024-03-05", "2024-03-07")
        ),
        RestStreakCase(
            name: "a threshold of 100%: the excused habit is not due, the missed one is",
            habits: [habit(1, created: "2024-03-01"), habit(2, created: "2024-03-01")],
            completions: ["1@2024-03-01", "2@2024-03-01", "1@2024-03-02", "1@2024-03-03"],
            skips: ["2@2024-03-02"],
            asOf: "2024-03-03",
            minPercent: 100,
            expected: (2, "2024-03-01", true, 2, "2024-03-01", "2024-03-02")
        ),
        RestStreakCase(
            name: "nothing done at all",
            completions: [],
            skips: ["1@2024-03-01"],
            asOf: "2024-03-03",
            expected: (0, nil, false, 0, nil, nil)
        ),
        RestStreakCase(
            name: "as of far ahead: the walk stops at the first missed day",
            completions: ["1@2024-03-01"],
            skips: ["1@2024-03-02"],
            asOf: "9999-12-31",
            expected: (0, nil, false, 1, "2024-03-01", "2024-03-01")
        ),
    ]

    @Test("current and longest with rest days", arguments: cases)
    func summary(scenario: RestStreakCase) throws {
        let data = index(
            habits: scenario.habits,
            completions: scenario.completions,
            skips: scenario.skips,
            rest: scenario.rest
        )
        let threshold = try StreakThreshold(minPercent: scenario.minPercent)
        let summary = StreakCalculator.summary(data, threshold: threshold, asOf: day(scenario.asOf))
        let (current, start, pending, longest, longestStart, longestEnd) = scenario.expected
        #expect(summary.current == current && summary.currentStart == start.map(day) && summary.todayPending == pending)
        #expect(summary.longest == longest)
        #expect(summary.longestStart == longestStart.map(day) && summary.longestEnd == longestEnd.map(day))
    }
}
