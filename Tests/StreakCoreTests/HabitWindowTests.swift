import Testing

@testable import StreakCore

@Suite("Habit windows")
struct HabitWindowTests {
    @Test(
        "a habit archived before it was created is refused, naming the habit and both dates",
        arguments: [("2024-03-05", "2024-03-04"), ("2024-03-01", "2024-02-29"), ("2025-01-01", "2024-12-31")]
    )
    func inverted(created: String, archived: String) throws {
        let error = #expect(throws: CoreError.self) {
            try Habit(id: 7, name: "h", createdOn: day(created), archivedOn: day(archived))
        }
        #expect(error?.code == .invalidArgument)
        #expect(error?.message == "habit 7 cannot be archived on \(archived), before it was created on \(created)")
        var habit = Habit(id: 7, name: "h", createdOn: day(created))
        #expect(throws: CoreError.self) { try habit.archive(on: day(archived)) }
        #expect(habit.archivedOn == nil)
    }

    @Test("archived on the day it was created: legal, never active, counted nowhere")
    func emptyWindow() throws {
        let habit = try Habit(id: 1, name: "h", createdOn: day("2024-03-05"), archivedOn: day("2024-03-05"))
        let data = CompletionIndex(habits: [habit], completions: [Completion(habitID: 1, date: day("2024-03-05"))])
        for offset in -2...2 {
            let date = try day("2024-03-05").adding(days: offset)
            #expect(!habit.isActive(on: date))
            #expect(data.activeCount(on: date) == 0)
            #expect(data.record(on: date).completed == 0)
        }
    }

    @Test("the index never counts a negative number of active habits, even for a window that got through inverted")
    func robustIndex() throws {
        // Habit refuses this window; the unchecked initializer stands for any path that might not.
        let inverted = Habit(id: 1, name: "h1", createdOn: day("2024-03-05"), uncheckedArchivedOn: day("2024-03-01"))
        let live = Habit(id: 2, name: "h2", createdOn: day("2024-02-01"))
        let data = CompletionIndex(
            habits: [inverted, live],
            completions: [
                Completion(habitID: 1, date: day("2024-03-03")), Completion(habitID: 2, date: day("2024-03-03")),
            ]
        )
        let heatmap = try HeatmapBuilder.build(
            data,
            options: HeatmapOptions(asOf: day("2024-03-10"), from: day("2024-02-26"), to: day("2024-03-10"))
        )
        let cells = heatmap.weeks.flatMap(\.cells).compactMap { $0 }
        #expect(cells.count == 14)
        #expect(cells.allSatisfy { $0.active == 1 }, "\(cells.map(\.active))")
        #expect(cells.filter { $0.level == .full }.map(\.date) == [day("2024-03-03")])
        for cell in cells {
            #expect(data.activeCount(on: cell.date) == 1)
            #expect(data.record(on: cell.date).completedHabitIDs == (cell.date == day("2024-03-03") ? [2] : []))
        }
    }
}
