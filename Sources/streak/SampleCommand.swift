import ArgumentParser
import Foundation
import StreakCLI
import StreakClient
import StreakCore
import StreakWire

/// `streak sample [--seed N]`: fills the current user with a plausible year of habits.
struct SampleCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sample",
        abstract: "Fill your account with a year of sample habits and completions (seeded, reproducible).",
        discussion: """
            Habits that already exist with a sample name are reused. Use --as-of for a fixed 'today'. \
            On an account that has habits of its own it asks first (--yes in a script): try it on a \
            user of its own (streakd user add sample) and pass that token.

            Examples:
              streak sample --seed 7
              streak --as-of 2025-06-15 sample --seed 7 --habits 3
            """
    )
    @OptionGroup var global: GlobalOptions
    @Option(help: "The random seed: the same seed and --as-of give the same data.") var seed: UInt64 = 1
    @Option(help: "How many sample habits, 1...5.") var habits: Int = 5
    @Flag(help: "Add the sample to an account that has habits of its own without asking.") var yes = false

    func run() async throws {
        try await global.run { context in
            guard (1...5).contains(habits) else { throw CLIFailure(.badInput, "--habits \(habits) is outside 1...5") }
            let today = try await resolveToday(context)
            let sample = SampleData(seed: seed, today: today, habitCount: habits)
            let existing = try await context.client.listHabits(includeArchived: true)
            let sampleNames = Set(sample.habits.map(\.name))
            let own = existing.filter { !sampleNames.contains($0.name) }
            // A habit of a sample name is reused: it must start by the sample's first day for it,
            // or its year of completions is refused after the other habits were made.
            for plan in sample.habits {
                guard let found = existing.first(where: { $0.name == plan.name }),
                    let createdOn = found.createdOn, createdOn > plan.createdOn
                else { continue }
                throw CLIFailure(
                    .badInput,
                    "the sample's '\(plan.name)' starts on \(plan.createdOn), but your habit of that name starts on "
                        + "\(createdOn), so its sample days would be refused; nothing was added (rename that habit, "
                        + "or try the sample on a new user: streakd user add NAME)"
                )
            }
            if !own.isEmpty && !yes {
                // Sample data mixed into real habits is hard to take out again: ask first.
                try Confirmation.ask(
                    "this account has \(own.count) habit\(own.count == 1 ? "" : "s") of its own; add \(sample.habits.count) sample habits "
                        + "with a year of completions to it? (streak habit delete removes them)",
                    flag: "--yes"
                )
            }
            var created: [WireHabit] = []
            var completions: [WireCompletion] = []
            for plan in sample.habits {
                let habit: WireHabit
                if let found = existing.first(where: { $0.name == plan.name }) {
                    habit = found
                } else {
                    habit = try await context.client.createHabit(name: plan.name, createdOn: plan.createdOn)
                }
                created.append(habit)
                completions += plan.completions.map { WireCompletion(habitId: habit.id, date: $0) }
            }
            var changed: Int32 = 0
            var streak: WireStreakSummary?
            for start in stride(from: 0, to: completions.count, by: 500) {
                let chunk = Array(completions[start..<min(start + 500, completions.count)])
                let response = try await context.client.batchCompletions(
                    WireBatchCompletionsRequest(record: chunk, asOf: today)
                )
                changed += response.changed
                streak = response.streak
            }
            try context.emit(
                json: .object([
                    ("habits", .array(created.map(WireJSON.habit))), ("completions", .int(Int64(completions.count))),
                    ("changed", .int(Int64(changed))), ("streak", WireJSON.streak(streak)),
                ]),
                text: """
                    \(Self.added(Int(changed), of: completions.count, habits: created.count, upTo: today))
                    now try: streak heatmap\(context.asOf == nil ? "" : " --as-of \(today)")

                    """
            )
        }
    }

    /// `added 732 completions for 5 habits up to DATE`, or, when some were there already (a second
    /// run), how many of them were new.
    static func added(_ changed: Int, of count: Int, habits: Int, upTo today: CivilDate) -> String {
        let what = "for \(Plural.of(habits, "habit")) up to \(today)"
        if changed == count { return "added \(Plural.of(count, "completion")) \(what)" }
        if changed == 0 { return "the \(count) sample completions \(what) were recorded already" }
        return "added \(changed) of \(count) sample completions \(what) (the others were recorded already)"
    }

    /// `--as-of`, else the server's idea of today (the as-of of a streak query).
    private func resolveToday(_ context: CommandContext) async throws -> CivilDate {
        if let asOf = context.asOf { return asOf }
        let streak = try await context.client.streak()
        guard let asOf = streak.asOf else { throw CLIFailure(.server, "the server did not say which day is today") }
        return asOf
    }
}
