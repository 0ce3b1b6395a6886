import StreakCore
import StreakFraming
import StreakWire
import Testing

/// Inputs the core refuses reach the client as INVALID_ARGUMENT with a message that says why.
@Suite struct ImpossibleInputTests {
    static func heatmapRequest(createdOn: String, archivedOn: String) -> WireBuildHeatmapRequest {
        WireBuildHeatmapRequest.with {
            $0.habits = [
                WireHabit.with {
                    $0.id = 7
                    $0.name = "h7"
                    $0.createdOn = day(createdOn)
                    $0.archivedOn = day(archivedOn)
                }
            ]
            $0.from = day("2024-02-26")
            $0.to = day("2024-03-10")
            $0.asOf = day("2024-03-10")
        }
    }

    @Test func habitsArchivedBeforeTheyWereCreatedAndPagesPastTheCalendar() throws {
        let harness = try ServerHarness()
        defer { harness.finish() }

        let inverted = try harness.status(
            .buildHeatmap,
            Self.heatmapRequest(createdOn: "2024-03-05", archivedOn: "2024-03-01")
        )
        #expect(inverted.code == .invalidArgument)
        #expect(inverted.message.contains("habit 7"), "\(inverted.message)")
        #expect(inverted.message.contains("2024-03-01") && inverted.message.contains("2024-03-05"))

        // Archived on the day it was created: legal, and never active.
        let empty: WireBuildHeatmapResponse = try harness.call(
            .buildHeatmap,
            Self.heatmapRequest(createdOn: "2024-03-05", archivedOn: "2024-03-05")
        )
        let weeks = try #require(empty.heatmap?.weeks)
        let cells = weeks.flatMap(\.cells).filter(\.present)
        #expect(cells.count == 14 && cells.allSatisfy { $0.active == 0 && $0.level == 0 })

        // The stateful path refuses it too, with the same words.
        let read = try harness.createHabit("Read", on: day("2024-03-05"))
        let archive = try harness.status(
            .archiveHabit,
            WireArchiveHabitRequest.with {
                $0.habitId = read.id
                $0.archivedOn = day("2024-03-01")
            }
        )
        #expect(archive.code == .invalidArgument && archive.message.contains("before it was created on 2024-03-05"))

        for (year, month) in [(Int32(9999), Int32(12)), (1, 1)] {
            let page = try harness.status(
                .buildMonthPage,
                WireBuildMonthPageRequest.with {
                    $0.year = year
                    $0.month = month
                    $0.asOf = day("2024-03-10")
                    $0.weekStart = WireWeekStart.with { $0.kind = .weekday(.sunday) }
                }
            )
            #expect(page.code == .invalidArgument, "\(year)-\(month)")
            #expect(page.message.contains("would show days"), "\(page.message)")
        }
    }
}
