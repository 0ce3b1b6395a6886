import Foundation
import StreakCLI
import StreakClient
import StreakWire

/// Finds the habit a command-line argument names: an exact name, else a unique
/// case-insensitive name, else a numeric id, else a unique case-insensitive name prefix
/// (`med` for `Meditate`). A name that several habits have is an error listing their ids.
enum HabitResolver {
    static func resolve(_ text: String, client: StreakClient) async throws -> WireHabit {
        try resolve(text, among: try await client.listHabits(includeArchived: true))
    }

    /// Every habit named, in order, from one list of the habits; nothing is resolved unless all are.
    /// - Parameter dateOption: the command's option for the day (`--date`): an argument that names
    ///   no habit but reads as a day (`streak done Read yesterday`) is refused with that option
    ///   suggested.
    static func resolve(_ texts: [String], client: StreakClient, dateOption: String) async throws -> [WireHabit] {
        let habits = try await client.listHabits(includeArchived: true)
        var found: [WireHabit] = []
        for text in texts {
            let habit = try resolve(text, among: habits, dateOption: dateOption)
            if !found.contains(where: { $0.id == habit.id }) { found.append(habit) }
        }
        return found
    }

    static func resolve(
        _ text: String,
        among habits: [WireHabit],
        dateOption: String? = nil
    ) throws(CLIFailure) -> WireHabit {
        let exact = habits.filter { $0.name == text }
        if exact.count == 1 { return exact[0] }
        if exact.count > 1 { throw ambiguous(text, exact, verb: "is the name of") }
        let lowered = cleaned(text).lowercased()
        // In any case; then also without surrounding white space (an older name may have some).
        var folded = habits.filter { $0.name.lowercased() == text.lowercased() }
        if folded.isEmpty { folded = habits.filter { comparable($0.name) == lowered } }
        if folded.count == 1 { return folded[0] }
        if folded.count > 1 { throw ambiguous(text, folded, verb: "matches") }
        if let id = Int64(text), let habit = habits.first(where: { $0.id == id }) { return habit }
        let prefixed = habits.filter { !lowered.isEmpty && $0.name.lowercased().hasPrefix(lowered) }
        if prefixed.count == 1 { return prefixed[0] }
        if prefixed.count > 1 {
            let names = prefixed.prefix(5).map { "'\($0.name)' (#\($0.id))" }.joined(separator: ", ")
            throw CLIFailure(.badInput, "'\(text)' could be \(names); type more of the name, or the id")
        }
        if let dateOption, looksLikeADay(text) {
            throw CLIFailure(
                .badInput,
                "no habit named '\(text)'; for the day, pass \(dateOption) \(text) (see: streak habit list)"
            )
        }
        throw CLIFailure(.badInput, "no habit named '\(text)' (see: streak habit list)")
    }

    /// Whether an argument reads as a day: a date expression (`yesterday`, `monday`, `2024-05-01`),
    /// or digits and dashes that only a date would have (`2024-13-01`), not an id (`3`).
    static func looksLikeADay(_ text: String) -> Bool {
        if (try? DateExpression(parsing: text)) != nil { return true }
        let digit = { (character: Character) in character.isASCII && character.isNumber }
        return text.contains("-") && text.contains(where: digit) && text.allSatisfy { digit($0) || $0 == "-" }
    }

    /// `'Read' is the name of 2 habits: #1 'Read', #4 'Read' (archived from 2025-06-01); give the id ...`.
    static func ambiguous(_ text: String, _ habits: [WireHabit], verb: String) -> CLIFailure {
        let listed = habits.map(describe).joined(separator: ", ")
        let example = habits.first(where: { $0.archivedOn == nil })?.id ?? habits[0].id
        return CLIFailure(
            .badInput,
            "'\(text)' \(verb) \(habits.count) habits: \(listed); give the id of the one you mean instead (e.g. \(example))"
        )
    }

    /// Refuses `name` when a live or archived habit other than `id` has it, for `habit add` and
    /// `habit rename`. Names that differ only in case or in surrounding white space count as the
    /// same (`streak done read` could not tell them apart), compared with Swift's `==` (so that
    /// a composed and a decomposed "Café" are the same name too).
    static func refuseTaken(_ name: String, among habits: [WireHabit], except id: Int64? = nil) throws(CLIFailure) {
        let key = comparable(name)
        guard let other = habits.first(where: { $0.id != id && comparable($0.name) == key }) else { return }
        let what = other.name == name ? "a habit named '\(name)' already exists" : "'\(name)' is taken"
        throw CLIFailure(
            .badInput,
            "\(what): \(describe(other)); choose another name "
                + "(or rename that one first: streak habit rename \(other.id) NEW-NAME)"
        )
    }

    /// A name as typed for `habit add` and `habit rename`: without surrounding white space, which
    /// a shell quote keeps by accident and nobody sees in a list.
    static func cleaned(_ name: String) -> String {
        name.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// How two names are compared for `refuseTaken` and the case-insensitive match.
    static func comparable(_ name: String) -> String {
        cleaned(name).lowercased()
    }

    /// `#4 'Read'`, with `(archived from DAY)` for an archived habit.
    static func describe(_ habit: WireHabit) -> String {
        "#\(habit.id) '\(habit.name)'" + (habit.archivedOn.map { " (archived from \($0))" } ?? "")
    }
}
