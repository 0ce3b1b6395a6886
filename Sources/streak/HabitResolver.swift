import StreakClient
import StreakWire

/// Finds the habit a command-line argument names: an exact name, else a unique
/// case-insensitive name, else a numeric id, else a unique case-insensitive name prefix
/// (`med` for `Meditate`).
enum HabitResolver {
    static func resolve(_ text: String, client: StreakClient) async throws -> WireHabit {
        try resolve(text, among: try await client.listHabits(includeArchived: true))
    }

    /// Every habit named, in order, from one list of the habits; nothing is resolved unless all are.
    static func resolve(_ texts: [String], client: StreakClient) async throws -> [WireHabit] {
        let habits = try await client.listHabits(includeArchived: true)
        var found: [WireHabit] = []
        for text in texts {
            let habit = try resolve(text, among: habits)
            if !found.contains(where: { $0.id == habit.id }) { found.append(habit) }
        }
        return found
    }

    static func resolve(_ text: String, among habits: [WireHabit]) throws(CLIFailure) -> WireHabit {
        if let habit = habits.first(where: { $0.name == text }) { return habit }
        let lowered = text.lowercased()
        let folded = habits.filter { $0.name.lowercased() == lowered }
        if folded.count == 1 { return folded[0] }
        if folded.count > 1 {
            throw CLIFailure(.badInput, "'\(text)' matches \(folded.count) habits; use the exact name or the id")
        }
        if let id = Int64(text), let habit = habits.first(where: { $0.id == id }) { return habit }
        let prefixed = habits.filter { !lowered.isEmpty && $0.name.lowercased().hasPrefix(lowered) }
        if prefixed.count == 1 { return prefixed[0] }
        if prefixed.count > 1 {
            let names = prefixed.prefix(5).map { "'\($0.name)' (#\($0.id))" }.joined(separator: ", ")
            throw CLIFailure(.badInput, "'\(text)' could be \(names); type more of the name, or the id")
        }
        throw CLIFailure(.badInput, "no habit named '\(text)' (see: streak habit list)")
    }
}
