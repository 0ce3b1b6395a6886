import Foundation
import StreakCore
import Testing

@Suite("Heatmap weeks")
struct HeatmapTests {
    static let data = index(
        habits: [(1, "2024-01-01"), (2, "2024-06-01")],
        completions: ["1@2025-01-01", "2@2025-01-01", "1@2025-01-02"]
    )

    @Test(
        "a year starting mid-week: partial first column, seven cells, absent before from",
        arguments: [
            // week start, absent cells before 2025-01-01 in the first column, first column's start
            (Weekday.monday, 2), (.sunday, 3), (.saturday, 4), (.wednesday, 0),
        ]
    )
    func midWeekStart(weekStart: Weekday, leadingAbsent: Int) throws {
        let options = HeatmapOptions(
            asOf: day("2025-12-31"),
            from: day("2025-01-01"),
            to: day("2025-12-31"),
            weekStart: weekStart
        )
        let heatmap = try HeatmapBuilder.build(Self.data, options: options)
        #expect(heatmap.weeks.allSatisfy { $0.cells.count == 7 })
        let first = heatmap.weeks[0]
        #expect(first.start == day("2025-01-01"))
        #expect(first.cells.prefix(leadingAbsent).allSatisfy { $0 == nil })
        #expect(first.cells[leadingAbsent]?.date == day("2025-01-01"))
        #expect(first.cells[leadingAbsent]?.level == .full)
        #expect(first.cells[leadingAbsent + 1]?.level == .medium)
        #expect(heatmap.weeks.dropFirst().allSatisfy { $0.start.weekday == weekStart })
        let present = heatmap.weeks.flatMap(\.cells).compactMap { $0 }
        #expect(present.count == 365)
        #expect(present.map(\.date) == (0..<365).map { try! day("2025-01-01").adding(days: $0) })
    }

    @Test("days after as_of are absent, a day with nothing done is present with 0%")
    func futureAbsent() throws {
        let options = HeatmapOptions(asOf: day("2025-01-03"), from: day("2025-01-01"), to: day("2025-01-31"))
        let heatmap = try HeatmapBuilder.build(Self.data, options: options)
        let cells = heatmap.weeks.flatMap(\.cells)
        #expect(cells.compactMap { $0 }.map(\.date) == [day("2025-01-01"), day("2025-01-02"), day("2025-01-03")])
        let zero = try #require(cells.compactMap { $0 }.last)
        #expect(zero.percentage == 0 && zero.level == .none && zero.active == 2)
        #expect(heatmap.weeks.count == 5)
    }

    @Test(
        "the default range is twelve months ending at as_of",
        arguments: [
            ("2025-03-15", "2024-04-01"), ("2024-12-31", "2024-01-01"), ("2024-01-01", "2023-02-01"),
            ("2024-11-30", "2023-12-01"),
        ]
    )
    func defaultRange(asOf: String, from: String) throws {
        let heatmap = try HeatmapBuilder.build(Self.data, options: HeatmapOptions(asOf: day(asOf)))
        #expect(heatmap.from == day(from))
        #expect(heatmap.to == day(asOf))
        #expect(heatmap.monthLabels.first?.weekIndex == 0)
    }

    @Test("cells carry accessibility labels on request")
    func accessibility() throws {
        let options = HeatmapOptions(asOf: day("2025-01-02"), from: day("2025-01-01"), accessibilityLabels: true)
        let cells = try HeatmapBuilder.build(Self.data, options: options).weeks.flatMap(\.cells).compactMap { $0 }
        #expect(
            cells.map(\.accessibilityLabel) == [
                "January 1: 100% completed, 2 of 2 habits", "January 2: 50% completed, 1 of 2 habits",
            ]
        )
    }

    @Test(
        "civil days do not shift across DST changes, even where local midnight does not exist",
        arguments: [
            ("America/Sao_Paulo", "2018-11-04"), ("America/Sao_Paulo", "2019-02-17"),
            ("America/New_York", "2024-03-10"),
            ("America/New_York", "2024-11-03"), ("Europe/London", "2024-03-31"), ("Europe/London", "2024-10-27"),
            ("Europe/Berlin", "2024-10-27"), ("Australia/Lord_Howe", "2024-04-07"),
            ("Australia/Lord_Howe", "2024-10-06"),
        ]
    )
    func daylightSaving(zoneName: String, changeDay: String) throws {
        let zone = try Today.timeZone(zoneName)
        let change = day(changeDay)
        // "Today" every quarter hour from two days before the change day (UTC) to three days after:
        // it moves one civil day at a time, never back, never skipping (the change day included).
        let start = Double(try change.adding(days: -2).dayNumber) * 86_400
        var todays: [CivilDate] = []
        for step in 0..<(5 * 96) {
            let today = Today.date(at: Date(timeIntervalSince1970: start + Double(step) * 900), in: zone)
            if today != todays.last { todays.append(today) }
        }
        #expect(todays.contains(change))
        #expect(zip(todays, todays.dropFirst()).allSatisfy { $0.days(to: $1) == 1 }, "\(todays)")
        // A heatmap from the first to the last of those days: one cell per civil day, in order.
        let data = index(habits: [(1, "2018-01-01")], completions: ["1@\(changeDay)"])
        let first: CivilDate = try #require(todays.first)
        let last: CivilDate = try #require(todays.last)
        let heatmap = try HeatmapBuilder.build(data, options: HeatmapOptions(asOf: last, from: first))
        let cells = heatmap.weeks.flatMap(\.cells).compactMap { $0 }
        #expect(cells.map(\.date) == todays)
        #expect(cells.filter { $0.level == .full }.map(\.date) == [change])
    }

    @Test(
        "a week start taken from a locale: en_US Sunday, en_GB and de_DE Monday, ar_EG Saturday",
        arguments: [("en_US", Weekday.sunday), ("en_GB", .monday), ("de_DE", .monday), ("ar_EG", .saturday)]
    )
    func localeWeekStart(identifier: String, expected: Weekday) throws {
        let weekStart = try WeekStartChoice.locale(identifier).resolve()
        #expect(weekStart == expected)
        // 2025-01-01 is a Wednesday, so no column is whole by accident of the range.
        let heatmap = try HeatmapBuilder.build(
            Self.data,
            options: HeatmapOptions(asOf: day("2025-03-31"), from: day("2025-01-01"), weekStart: weekStart)
        )
        #expect(heatmap.weekStart == expected)
        let order = Weekday.ordered(startingAt: expected)
        for week in heatmap.weeks {
            for (position, cell) in week.cells.enumerated() {
                if let cell { #expect(cell.date.weekday == order[position], "\(cell.date)") }
            }
        }
        #expect(heatmap.weeks.dropFirst().allSatisfy { $0.start.weekday == expected })
    }

    @Test("a bad range is refused", arguments: [("2025-02-01", "2025-01-01"), ("2000-01-01", "2025-01-01")])
    func badRange(from: String, to: String) {
        #expect(throws: CoreError.self) {
            try HeatmapBuilder.build(Self.data, options: HeatmapOptions(asOf: day(to), from: day(from), to: day(to)))
        }
    }
}
