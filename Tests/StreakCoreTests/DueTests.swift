import StreakCore
import Testing

/// One day of one scenario: what is expected of it.
struct DueCase: Sendable, CustomTestStringConvertible {
    var name: String
    var habits: [Habit]
    var completions: [String] = []
    var skips: [String] = []
    var rest: [String] = []
    var date: String
    /// completed, due, active, rest day, level, percentage.
    var expected: (Int, Int, Int, Bool, IntensityLevel, Int)
    var testDescription: String { name }
}

@Suite("Due and rest days")
struct DueTests {
    /// Monday, Wednesday, Friday from 2024-03-01 (2024-03-04 is a Monday, 03-05 a Tuesday).
    static let mwf = habit(1, schedule: [("2024-03-01", [2, 4, 6])])
    static let daily = habit(1)

    static let cases: [DueCase] = [
        DueCase(
            name: "not on the schedule: a rest day",
            habits: [mwf],
            date: "2024-03-05",
            expected: (0, 0, 1, true, .none, 0)
        ),
        DueCase(
            name: "on the schedule, nothing done",
            habits: [mwf],
            date: "2024-03-04",
            expected: (0, 1, 1, false, .none, 0)
        ),
        DueCase(
            name: "done on a day it was not expected always counts",
            habits: [mwf],
            completions: ["1@2024-03-05"],
            date: "2024-03-05",
            expected: (1, 1, 1, false, .full, 100)
        ),
        DueCase(
            name: "before the first entry: every day",
            habits: [habit(1, schedule: [("2024-03-06", [2])])],
            date: "2024-03-05",
            expected: (0, 1, 1, false, .none, 0)
        ),
        DueCase(
            name: "a later entry takes over from its date",
            habits: [habit(1, schedule: [("2024-03-01", [2]), ("2024-03-05", [1, 2, 3, 4, 5, 6, 7])])],
            date: "2024-03-05",
            expected: (0, 1, 1, false, .none, 0)
        ),
        DueCase(
            name: "skipped: a rest day",
            habits: [daily],
            skips: ["1@2024-03-05"],
            date: "2024-03-05",
            expected: (0, 0, 1, true, .none, 0)
        ),
        DueCase(
            name: "skipped and completed: done",
            habits: [daily],
            completions: ["1@2024-03-05"],
            skips: ["1@2024-03-05"],
            date: "2024-03-05",
            expected: (1, 1, 1, false, .full, 100)
        ),
        DueCase(
            name: "in a rest period: a rest day",
            habits: [daily],
            rest: ["2024-03-04..2024-03-08"],
            date: "2024-03-05",
            expected: (0, 0, 1, true, .none, 0)
        ),
        DueCase(
            name: "done in a rest period counts",
            habits: [daily, habit(2)],
            completions: ["1@2024-03-08"],
            rest: ["2024-03-04..2024-03-08"],
            date: "2024-03-08",
            expected: (1, 1, 2, false, .full, 100)
        ),
        DueCase(
            name: "the day after a rest period",
            habits: [daily],
            rest: ["2024-03-04..2024-03-08"],
            date: "2024-03-09",
            expected: (0, 1, 1, false, .none, 0)
        ),
        DueCase(
            name: "nothing active stays as before, not a rest day",
            habits: [daily],
            rest: ["2023-12-01..2023-12-31"],
            date: "2023-12-31",
            expected: (0, 0, 0, false, .none, 0)
        ),
        DueCase(
            name: "one of two excused, the other done: full",
            habits: [mwf, habit(2)],
            completions: ["2@2024-03-05"],
            date: "2024-03-05",
            expected: (1, 1, 2, false, .full, 100)
        ),
        DueCase(
            name: "one of two skipped, nothing done",
            habits: [daily, habit(2)],
            skips: ["1@2024-03-04"],
            date: "2024-03-04",
            expected: (0, 1, 2, false, .none, 0)
        ),
        DueCase(
            name: "a skip of an archived habit does not count",
            habits: [
                try! Habit(id: 1, name: "h", createdOn: day("2024-01-01"), archivedOn: day("2024-03-01")), habit(2),
            ],
            skips: ["1@2024-03-04"],
            date: "2024-03-04",
            expected: (0, 1, 1, false, .none, 0)
        ),
        DueCase(
            name: "four of five due, one of six skipped",
            habits: (1...6).map { habit($0) },
            completions: ["1@2024-03-05", "2@2024-03-05", "3@2024-03-05", "4@2024-03-05"],
            skips: ["6@2024-03-05"],
            date: "2024-03-05",
            expected: (4, 5, 6, false, .medium, 80)
        ),
    ]

    @Test("each rule of due, level and percentage, in the day record and in the heatmap cell", arguments: cases)
    func dayRecord(scenario: DueCase) throws {
        let data = index(
            habits: scenario.habits,
            completions: scenario.completions,
            skips: scenario.skips,
            rest: scenario.rest
        )
        let record = data.record(on: day(scenario.date))
        let (completed, due, active, rest, level, percentage) = scenario.expected
        #expect(record.completed == completed && record.due == due && record.active == active)
        #expect(record.isRestDay == rest && record.level == level && record.percentage == percentage)
        #expect(record.contributes == (completed > 0))
        #expect(record.completed <= record.due)
        let options = HeatmapOptions(asOf: day(scenario.date), from: day(scenario.date), to: day(scenario.date))
        let cell = try #require(
            try HeatmapBuilder.build(data, options: options).weeks.flatMap(\.cells).compactMap { $0 }.first
        )
        #expect(cell.completed == completed && cell.due == due && cell.active == active && cell.isRestDay == rest)
        #expect(cell.level == level && cell.percentage == percentage)
    }

    @Test("labels: rest day, and 4 of 5 habits meaning 4 done of 5 due")
    func labels() throws {
        let six = DueTests.cases.last!
        let data = index(habits: six.habits, completions: six.completions, skips: six.skips)
        #expect(DayDetail(data, date: day("2024-03-05")).accessibilityLabel == "March 5: 80% completed, 4 of 5 habits")
        let resting = index(habits: [Self.daily], completions: [], rest: ["2024-03-05..2024-03-05"])
        #expect(DayDetail(resting, date: day("2024-03-05")).accessibilityLabel == "March 5: rest day")
        let options = HeatmapOptions(
            asOf: day("2024-03-05"),
            from: day("2024-03-05"),
            to: day("2024-03-05"),
            accessibilityLabels: true
        )
        let cell = try HeatmapBuilder.build(resting, options: options).weeks[0].cells.compactMap { $0 }.first
        #expect(cell?.accessibilityLabel == "March 5: rest day")
        let nothingActive = index(
            habits: [habit(1, created: "2024-03-06")],
            completions: [],
            rest: ["2024-03-05..2024-03-05"]
        )
        #expect(
            DayDetail(nothingActive, date: day("2024-03-05")).accessibilityLabel
                == "March 5: 0% completed, 0 of 0 habits"
        )
        // One language throughout: the label stays English under another locale.
        let german = try LocaleProfile.named("de_DE")
        #expect(DayDetail(resting, date: day("2024-03-05"), locale: german).accessibilityLabel == "March 5: rest day")
    }
}
