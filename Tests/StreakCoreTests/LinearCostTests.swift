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
}
