import StreakCore
import Testing

/// One column of a heatmap built alone, as a server patching a cached heatmap builds it, and
/// every cell checked against the day's record.
@Suite("Heatmap columns one at a time")
struct HeatmapWeekTests {
    static let start = day("2024-01-01")

    /// Habits created and archived on random days, some on schedules; completions on random days
    /// (some outside their habit's window), skips and rest periods.
    static func randomIndex(_ random: inout SplitMix64, schedulesAndSkips: Bool) -> CompletionIndex {
        let habits = (1...5).map { id in
            let created = try! start.adding(days: Int.random(in: 0..<60, using: &random))
            let archived =
                Int.random(in: 0..<4, using: &random) == 0
                ? try! created.adding(days: Int.random(in: 1..<200, using: &random)) : nil
            var habit = try! Habit(id: Int64(id), name: "h\(id)", createdOn: created, archivedOn: archived)
            if schedulesAndSkips && Bool.random(using: &random) {
                let weekdays = try! WeekdaySet(numbers: [1, 3, 5].filter { _ in Bool.random(using: &random) } + [6])
                habit.schedule.set(weekdays, from: try! created.adding(days: Int.random(in: 0..<90, using: &random)))
            }
            return habit
        }
        let randomDay = { (random: inout SplitMix64) in
            try! start.adding(days: Int.random(in: -10..<400, using: &random))
        }
        let completions = (0..<400).map { _ in
            Completion(habitID: Int64.random(in: 1...5, using: &random), date: randomDay(&random))
        }
        guard schedulesAndSkips else { return CompletionIndex(habits: habits, completions: completions) }
        let skips = (0..<40).map { _ in
            Skip(habitID: Int64.random(in: 1...5, using: &random), date: randomDay(&random))
        }
        let restStart = randomDay(&random)
        let rest = try! RestPeriod(
            from: restStart,
            to: try! restStart.adding(days: Int.random(in: 0..<20, using: &random))
        )
        return CompletionIndex(habits: habits, completions: completions, skips: skips, restPeriods: [rest])
    }

    /// Random options: any week start, the default range or a random one that starts by `asOf`
    /// and may end after it.
    static func randomOptions(_ random: inout SplitMix64) -> HeatmapOptions {
        let asOfOffset = Int.random(in: 100..<420, using: &random)
        let asOf = try! start.adding(days: asOfOffset)
        var options = HeatmapOptions(
            asOf: asOf,
            weekStart: Weekday.allCases.randomElement(using: &random)!,
            accessibilityLabels: Bool.random(using: &random)
        )
        if Bool.random(using: &random) {
            let from = try! start.adding(days: Int.random(in: -20..<asOfOffset, using: &random))
            options.from = from
            options.to = try! from.adding(days: Int.random(in: 0..<300, using: &random))
        }
        return options
    }

    @Test(
        "each column built alone equals the same column of the whole heatmap; every cell is its day's record",
        arguments: 1...12
    )
    func columnsAlone(seed: UInt64) throws {
        var random = SplitMix64(seed: seed)
        let index = Self.randomIndex(&random, schedulesAndSkips: seed % 2 == 0)
        for _ in 0..<6 {
            let options = Self.randomOptions(&random)
            let heatmap = try HeatmapBuilder.build(index, options: options)
            for (position, week) in heatmap.weeks.enumerated() {
                #expect(try HeatmapBuilder.week(position, of: index, options: options) == week, "seed \(seed)")
                for case let cell? in week.cells {
                    let record = index.record(on: cell.date)
                    #expect(
                        [cell.completed, cell.due, cell.active] == [record.completed, record.due, record.active]
                            && cell.isRestDay == record.isRestDay,
                        "seed \(seed), \(cell.date)"
                    )
                }
            }
            #expect(throws: CoreError.self) { try HeatmapBuilder.week(-1, of: index, options: options) }
            #expect(throws: CoreError.self) {
                try HeatmapBuilder.week(heatmap.weeks.count, of: index, options: options)
            }
        }
    }

    @Test("a day's column index is the column that shows it, and nil for a day without a cell", arguments: 1...6)
    func columnOfDay(seed: UInt64) throws {
        var random = SplitMix64(seed: seed)
        let index = Self.randomIndex(&random, schedulesAndSkips: false)
        for _ in 0..<6 {
            let options = Self.randomOptions(&random)
            let heatmap = try HeatmapBuilder.build(index, options: options)
            var shown: [CivilDate: Int] = [:]
            for (position, week) in heatmap.weeks.enumerated() {
                for case let cell? in week.cells { shown[cell.date] = position }
            }
            #expect(!shown.isEmpty)
            var date = try heatmap.from.adding(days: -9)
            while date <= (try heatmap.to.adding(days: 9)) {
                #expect(try HeatmapBuilder.weekIndex(of: date, options: options) == shown[date], "\(date)")
                date = try date.adding(days: 1)
            }
        }
    }

    @Test("a leap day and a DST Sunday sit in the column a calendar puts them in")
    func calendarEdges() throws {
        // 2024-02-29 is a Thursday; 2024-03-31 (Europe's DST change) a Sunday. Civil days have no
        // hours, so neither moves a cell.
        let index = CompletionIndex(
            habits: [Habit(id: 1, name: "h", createdOn: day("2024-01-01"))],
            completions: [
                Completion(habitID: 1, date: day("2024-02-29")), Completion(habitID: 1, date: day("2024-03-31")),
            ]
        )
        for (weekStart, leapRow, dstRow) in [(Weekday.monday, 3, 6), (.sunday, 4, 0), (.saturday, 5, 1)] {
            let options = HeatmapOptions(asOf: day("2024-04-30"), from: day("2024-02-01"), weekStart: weekStart)
            for (date, row) in [(day("2024-02-29"), leapRow), (day("2024-03-31"), dstRow)] {
                let column = try #require(try HeatmapBuilder.weekIndex(of: date, options: options))
                let week = try HeatmapBuilder.week(column, of: index, options: options)
                #expect(week.cells[row]?.date == date && week.cells[row]?.completed == 1, "\(weekStart) \(date)")
            }
        }
    }
}
