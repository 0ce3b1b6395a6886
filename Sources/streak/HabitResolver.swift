import StreakClient
import StreakWire

/// Finds the habit a command-line argument names: an exact name, else a unique
/// case-insensitive name, else a numeric id.
enum HabitResolver {
    static func resolve(_ text: String, client: StreakClient) async throws -> WireHabit {
        let habits = try await client.listHabits(includeArchived: true)
        if let habit = habits.first(where: { $0.name == text }) { return habit }
        let folded = habits.filter { $0.name.lowercased() == text.lowercased() }
        if folded.count == 1 { return folded[0] }
        if folded.count > 1 {
            throw CLIFailure(.badInput, "'\(text)' matches \(folded.count) habits; use the exact name or the id")
        }
        if let id = Int64(text), let habit = habits.first(where: { $0.id == id }) { return habit }
        throw CLIFailure(.badInput, "no habit named '\(text)' (see: streak habit list)")
    }
}
