import Testing

@testable import StreakCore

/// The cost of a heatmap, counted in the sweep's elementary steps rather than timed.
@Suite("Linear cost")
struct LinearCostTests {
    /// Fifty habits over ten years (2015...2024): created on staggered days, every fifth archived
    /// after two years, each done on about two days in three, some completions outside its window.
    static func tenYearsOfFiftyHabits() throws -> CompletionIndex {
        let first = day("2015-01-01")
        var habits: [Habit] = []
        var completions: [Completion] = []
        for id in Int64(1)...50 {
            let created = try first.adding(days: Int(id) * 20)
            let archived = id % 5 == 0 ? try created.adding(days: 730) : nil
            habits.append(try Habit(id: id, name: "h\(id)", createdOn: created, archivedOn: archived))
            for offset in 0..<3653 where (offset * 7 + Int(id) * 13) % 3 != 0 {
                completions.append(Completion(habitID: id, date: try first.adding(days: offset)))
            }
        }
        return CompletionIndex(habits: habits, completions: completions)
    }

    @Test("a ten-year heatmap of fifty habits visits each day and each completion once")
    func tenYears() throws {
        let data = try Self.tenYearsOfFiftyHabits()
        let options = HeatmapOptions(asOf: day("2024-12-31"), from: day("2015-01-01"), to: day("2024-12-31"))
        var steps = 0
        let heatmap = try HeatmapBuilder.build(data, options: options, steps: &steps)

        let days = 3653
        let completions = data.completedIDs.reduce(0) { $0 + $1.count }
        let windowEdges = data.createdDays.count + data.archivedDays.count
        #expect(completions > 100_000)
        // At least one step per day and per completion in range, at most one more per window edge:
        // O(days + completions + habits), where a scan of every completion per day would be
        // over 300 million steps and a scan of every habit per day over 180,000.
        #expect(steps >= days + completions)
        #expect(steps <= days + completions + windowEdges, "\(steps) steps")

        // And the sweep's counts are the day records' counts, archived and not-yet-created habits included.
        let cells = heatmap.weeks.flatMap(\.cells).compactMap { $0 }
        #expect(cells.count == days)
        for cell in cells {
            let record = data.record(on: cell.date)
            #expect(cell.completed == record.completed && cell.active == record.active, "\(cell.date)")
        }
    }

    @Test("the steps of a shorter range count only its own days and completions")
    func shorterRange() throws {
        let data = try Self.tenYearsOfFiftyHabits()
        let options = HeatmapOptions(asOf: day("2020-03-31"), from: day("2020-03-01"), to: day("2020-03-31"))
        var steps = 0
        _ = try HeatmapBuilder.build(data, options: options, steps: &steps)
        let inRange = (day("2020-03-01").dayNumber...day("2020-03-31").dayNumber)
            .reduce(0) { $0 + data.allCompletedHabitIDs(onDayNumber: $1).count }
        let edgesBefore = (data.createdDays + data.archivedDays).filter { $0 <= day("2020-03-31").dayNumber }.count
        #expect(steps == 31 + inRange + edgesBefore)
    }

    /// The same ten years with schedules (three entries a habit), a skip every eleventh day of each
    /// habit where it was not done, and a week of rest every year.
    static func tenYearsWithSchedulesSkipsAndRest() throws -> CompletionIndex {
        let base = try tenYearsOfFiftyHabits()
        let first = day("2015-01-01")
        let habits = try base.habits.map { habit -> Habit in
            var habit = habit
            for entry in 0..<3 {
                let weekdays = try WeekdaySet(numbers: [
                    (Int(habit.id) + entry) % 7 + 1, (Int(habit.id) * 3 + entry) % 7 + 1,
                ])
                habit.schedule.set(weekdays, from: try first.adding(days: 400 + entry * 1000 + Int(habit.id)))
            }
            return habit
        }
        var skips: [Skip] = []
        for habit in habits {
            for offset in stride(from: Int(habit.id) % 11, to: 3653, by: 11) {
                skips.append(Skip(habitID: habit.id, date: try first.adding(days: offset)))
            }
        }
        let rest = try (0..<10).map { year in
            let start = try first.adding(days: year * 365 + 200)
            return try RestPeriod(from: start, to: try start.adding(days: 6))
        }
        let completions = zip(base.daysWithCompletions, base.completedIDs).flatMap { day, ids in
            ids.map { Completion(habitID: $0, date: CivilDate(validDayNumber: day)) }
        }
        return CompletionIndex(habits: habits, completions: completions, skips: skips, restPeriods: rest)
    }

    @Test("with schedules, skips and rest periods: each day, completion, skip and schedule entry once")
    func tenYearsWithExceptions() throws {
        let data = try Self.tenYearsWithSchedulesSkipsAndRest()
        #expect(data.hasSchedulesSkipsOrRest)
        let options = HeatmapOptions(asOf: day("2024-12-31"), from: day("2015-01-01"), to: day("2024-12-31"))
        var steps = 0
        let heatmap = try HeatmapBuilder.build(data, options: options, steps: &steps)

        let days = 3653
        let completions = data.completedIDs.reduce(0) { $0 + $1.count }
        let skips = data.skipTable.count
        let windowEdges = data.createdDays.count + data.archivedDays.count
        let scheduleEvents = data.scheduleTimeline.count  // entries plus each scheduled habit's window edges
        #expect(skips > 4_000 && scheduleEvents == 50 * 3 + 50 + 10)
        #expect(steps >= days + completions + skips)
        #expect(
            steps <= days + completions + skips + windowEdges + scheduleEvents + data.restIntervals.count,
            "\(steps) steps"
        )

        // The sweep's counts are the single-day records' counts, computed another way.
        let cells = heatmap.weeks.flatMap(\.cells).compactMap { $0 }
        #expect(cells.contains { $0.isRestDay })
        for cell in cells {
            let record = data.record(on: cell.date)
            #expect(
                cell.completed == record.completed && cell.due == record.due && cell.active == record.active,
                "\(cell.date)"
            )
        }

        // A streak walks the same days once, from the first completion through as of.
        steps = 0
        let summary = StreakCalculator.summaryBridgingRestDays(
            data,
            threshold: .atLeastOneHabit,
            asOf: day("2024-12-31"),
            steps: &steps
        )
        #expect(summary == StreakCalculator.summary(data, asOf: day("2024-12-31")))
        #expect(
            steps <= days + completions + skips + windowEdges + scheduleEvents + data.restIntervals.count,
            "\(steps) steps"
        )
        // And a far "as of" stops at the first missed day after the last completion.
        steps = 0
        _ = StreakCalculator.summaryBridgingRestDays(data, threshold: .atLeastOneHabit, asOf: .max, steps: &steps)
        #expect(steps <= days + 7 + completions + skips + windowEdges + scheduleEvents + data.restIntervals.count)
    }
}
