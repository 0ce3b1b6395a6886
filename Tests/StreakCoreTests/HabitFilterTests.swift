import StreakCore
import Testing

@Suite("Per-habit views")
struct HabitFilterTests {
    /// Meditation (1) daily; gym (2) Monday, Wednesday, Friday; reading (3) skipped on 03-05.
    static let data = index(
        habits: [
            habit(1, created: "2024-03-01"), habit(2, created: "2024-03-01", schedule: [("2024-03-01", [2, 4, 6])]),
            habit(3, created: "2024-03-01"),
        ],
        completions: ["1@2024-03-04", "1@2024-03-05", "2@2024-03-04", "2@2024-03-06", "3@2024-03-04"],
        skips: ["3@2024-03-05"]
    )

    @Test(
        "active, due and completed count the chosen habits alone",
        arguments: [
            // ids, date, completed, due, active, rest day
            ([Int64(1)], "2024-03-05", 1, 1, 1, false), ([2], "2024-03-05", 0, 0, 1, true),
            ([3], "2024-03-05", 0, 0, 1, true),
            ([2, 3], "2024-03-05", 0, 0, 2, true), ([1, 2, 3], "2024-03-05", 1, 1, 3, false),
            ([1, 2], "2024-03-06", 1, 2, 2, false),
            ([], "2024-03-05", 0, 0, 0, false),
        ] as [([Int64], String, Int, Int, Int, Bool)]
    )
    func dayRecord(ids: [Int64], date: String, completed: Int, due: Int, active: Int, rest: Bool) throws {
        let view = try Self.data.restricted(to: Set(ids))
        let record = view.record(on: day(date))
        #expect(
            record.completed == completed && record.due == due && record.active == active && record.isRestDay == rest
        )
        let options = HeatmapOptions(asOf: day(date), from: day("2024-03-01"), to: day(date))
        let cell = try HeatmapBuilder.build(view, options: options).weeks.flatMap(\.cells).compactMap { $0 }.last
        #expect(cell?.completed == completed && cell?.due == due && cell?.active == active && cell?.isRestDay == rest)
    }

    @Test("one habit's streak: done days contribute, excused days are rest days")
    func streak() throws {
        let gym = StreakCalculator.summary(try Self.data.restricted(to: [2]), asOf: day("2024-03-07"))
        #expect(gym.current == 2 && gym.currentStart == day("2024-03-04") && gym.todayPending)
        let meditation = StreakCalculator.summary(try Self.data.restricted(to: [1]), asOf: day("2024-03-07"))
        #expect(meditation.current == 0 && meditation.longest == 2)
        let all = StreakCalculator.summary(Self.data, asOf: day("2024-03-06"))
        #expect(all.current == 3)
    }

    @Test("the weekday chart and the habits are restricted too; the full index is unchanged")
    func weekdayChart() throws {
        let view = try Self.data.restricted(to: [2, 3])
        let chart = try WeekdayChartBuilder.build(view, asOf: day("2024-03-07"), includeTotal: true)
        #expect(chart.series.map(\.habitID) == [2, 3, nil])
        #expect(chart.series.last?.counts.reduce(0, +) == 3)
        #expect(view.habits.map(\.id) == [2, 3] && view.skips.count == 1)
        #expect(Self.data.habits.count == 3 && Self.data.completedHabitIDs(on: day("2024-03-04")) == [1, 2, 3])
    }

    @Test("an id the user does not have is NOT_FOUND, naming the smallest one", arguments: [[Int64(4)], [1, 9, 7]])
    func unknown(ids: [Int64]) {
        let error = #expect(throws: CoreError.self) { try Self.data.restricted(to: Set(ids)) }
        #expect(error?.code == .notFound && error?.rpcStatusCode == .notFound)
        #expect(error?.message == "no habit with id \(ids.filter { $0 > 3 }.min()!) (habit_ids)")
    }
}
