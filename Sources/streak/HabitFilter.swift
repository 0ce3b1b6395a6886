import ArgumentParser
import StreakClient

/// `--habit NAME|ID` (repeatable): a per-habit view of heatmap, streak, day, weekdays and calendar.
struct HabitFilter: ParsableArguments {
    @Option(
        name: .customLong("habit"),
        help: ArgumentHelp("Only this habit (a name or id); repeat for several.", valueName: "habit")
    )
    var habits: [String] = []

    /// The ids of the habits named, empty for "every habit".
    func ids(client: StreakClient) async throws -> [Int64] {
        var ids: [Int64] = []
        for text in habits {
            ids.append(try await HabitResolver.resolve(text, client: client).id)
        }
        return ids
    }
}
