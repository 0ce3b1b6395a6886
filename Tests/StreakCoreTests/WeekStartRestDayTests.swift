import StreakCore
import Testing

@Suite("Rest days in heatmaps and month pages, by week start")
struct WeekStartRestDayTests {
    /// Monday, Wednesday, Friday; done on Monday 2024-03-04 and Wednesday 03-06; Friday 03-08 skipped;
    /// a rest period on 03-14...03-15.
    static let data = index(
        habits: [habit(1, created: "2024-03-01", schedule: [("2024-03-01", [2, 4, 6])])],
        completions: ["1@2024-03-04", "1@2024-03-06"],
        skips: ["1@2024-03-08"],
        rest: ["2024-03-14..2024-03-15"]
    )
    /// The rest days of 03-01...03-17: not scheduled, skipped or resting.
    static let restDays = [
        "2024-03-02", "2024-03-03", "2024-03-05", "2024-03-07", "2024-03-08", "2024-03-09", "2024-03-10",
        "2024-03-12", "2024-03-14", "2024-03-15", "2024-03-16", "2024-03-17",
    ]

    @Test(
        "rest cells sit in their week column with level 0 and no percentage",
        arguments: [Weekday.saturday, .sunday, .monday]
    )
    func heatmap(weekStart: Weekday) throws {
        // 2024-03-01 is a Friday: 6, 5 or 4 leading absent cells for Saturday, Sunday, Monday starts.
        let options = HeatmapOptions(
            asOf: day("2024-03-17"),
            from: day("2024-03-01"),
            to: day("2024-03-17"),
            weekStart: weekStart,
            accessibilityLabels: true
        )
        let heatmap = try HeatmapBuilder.build(Self.data, options: options)
        let absent = [Weekday.saturday: 6, .sunday: 5, .monday: 4][weekStart]!
        #expect(heatmap.weeks[0].cells.prefix(absent).allSatisfy { $0 == nil })
        #expect(heatmap.weeks.dropFirst().allSatisfy { $0.start.weekday == weekStart })
        let cells = heatmap.weeks.flatMap(\.cells).compactMap { $0 }
        #expect(cells.count == 17)
        #expect(cells.filter(\.isRestDay).map(\.date) == Self.restDays.map(day))
        for cell in cells where cell.isRestDay {
            #expect(cell.level == .none && cell.percentage == 0 && cell.due == 0 && cell.active == 1)
            #expect(cell.accessibilityLabel == "March \(cell.date.day): rest day")
        }
        #expect(
            cells.first { $0.date == day("2024-03-11") }?.accessibilityLabel == "March 11: 0% completed, 0 of 1 habit"
        )
    }

    @Test("a month page marks the rest days in every week order", arguments: [Weekday.saturday, .sunday, .monday])
    func monthPage(weekStart: Weekday) throws {
        let month = try YearMonth(year: 2024, month: 3)
        let rest = Set(Self.restDays.map(day).filter { Self.data.record(on: $0).isRestDay })
        let page = try MonthPageBuilder.build(month, options: MonthPageOptions(weekStart: weekStart, restDays: rest))
        #expect(page.days.count == 42 && page.days[0].date.weekday == weekStart)
        #expect(Set(page.days.filter(\.isRestDay).map(\.date)) == rest)
        #expect(rest.count == Self.restDays.count)
    }
}
