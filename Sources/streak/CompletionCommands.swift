import ArgumentParser
import StreakCLI
import StreakClient
import StreakCore
import StreakWire

/// The options of `done` and `undo`.
struct CompletionOptions: ParsableArguments {
    @Argument(
        help: ArgumentHelp("The habits: names, unambiguous name prefixes or ids.", valueName: "habit"),
        completion: HabitCompletion.kind
    )
    var habits: [String]
    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "The day (default: --as-of, else today): YYYY-MM-DD, yesterday, -N, monday.",
            valueName: DateArgument.valueName
        )
    )
    var date: String?
    @Flag(help: "Accept a --date after today.") var allowFuture = false

    func validate() throws {
        guard !habits.isEmpty else { throw ValidationError("Name at least one habit.") }
    }

    /// What the command does to each habit's day.
    enum Action {
        case record, remove, skip, unskip
    }

    /// Applies `action` to the habits on the day: records and removals of several habits in one
    /// batch (all or nothing), skips one habit after the other.
    func run(global: GlobalOptions, action: Action) async throws {
        try await global.run { context in
            let day = try await context.date(date, option: "--date", allowFuture: allowFuture) ?? context.asOf
            let found = try await HabitResolver.resolve(habits, client: context.client, dateOption: "--date")
            // A skip takes back a completion of that day: say so, as the answer's counts alone do not.
            var takenBack: [WireHabit] = []
            var checked: CivilDate?
            if action == .skip && !context.json {
                let on = try await context.dateOrToday(date, option: "--date", allowFuture: allowFuture)
                let done = try await context.client.day(on, habitIDs: found.map(\.id)).completedHabits.map(\.id)
                takenBack = found.filter { done.contains($0.id) }
                checked = on
            }
            let (changed, record, streak) = try await HabitNaming.naming(found) {
                try await apply(action, to: found, on: day, context: context)
            }
            var text = DayRecordRenderer.render(
                day: record,
                streak: streak,
                changed: changed,
                style: context.style
            )
            // Said only for the day checked: at midnight the server's today may be the next one.
            if let on = record?.date, on == checked, !takenBack.isEmpty {
                let names = takenBack.map { "'\($0.name)'" }.joined(separator: ", ")
                text +=
                    "the completion of \(names) on \(on) was taken back: a day is done or skipped, "
                    + "not both (streak done marks it done again)\n"
            }
            try context.emit(
                json: .object([
                    ("changed", .bool(changed)), ("day", WireJSON.dayRecord(record)),
                    ("streak", WireJSON.streak(streak)),
                    ("habit_ids", .array(found.map { .int($0.id) })),
                ]),
                text: text
            )
        }
    }

    /// Sends the changes: whether any changed something, the day after them and the streak.
    private func apply(
        _ action: Action,
        to found: [WireHabit],
        on day: CivilDate?,
        context: CommandContext
    ) async throws -> (changed: Bool, record: WireDayRecord?, streak: WireStreakSummary?) {
        let client = context.client
        if found.count == 1 || action == .skip || action == .unskip {
            var anyChanged = false
            var last = WireCompletionResponse()
            for habit in found {
                last =
                    switch action {
                    case .record:
                        try await client.recordCompletion(habitID: habit.id, date: day, asOf: context.asOf)
                    case .remove:
                        try await client.removeCompletion(habitID: habit.id, date: day, asOf: context.asOf)
                    case .skip: try await client.skip(habitID: habit.id, date: day, asOf: context.asOf)
                    case .unskip: try await client.unskip(habitID: habit.id, date: day, asOf: context.asOf)
                    }
                anyChanged = anyChanged || last.changed
            }
            return (anyChanged, last.day, last.streak)
        } else {
            // Several habits: one batch, so that all of them change or none does.
            let on = try await context.dateOrToday(date, option: "--date", allowFuture: allowFuture)
            let completions = found.map { WireCompletion(habitId: $0.id, date: on) }
            var request = WireBatchCompletionsRequest(asOf: context.asOf)
            if action == .remove { request.remove = completions } else { request.record = completions }
            let response = try await client.batchCompletions(request)
            return (response.changed > 0, response.days.first, response.streak)
        }
    }
}

/// `streak done HABIT... [--date D]`.
struct DoneCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "done",
        abstract: "Mark habits done on a day.",
        discussion: """
            Examples:
              streak done Meditate
              streak done med read --date yesterday    # prefixes of the names
              streak done 3 --date -2                  # habit #3, two days ago
            """
    )
    @OptionGroup var global: GlobalOptions
    @OptionGroup var options: CompletionOptions

    func run() async throws {
        try await options.run(global: global, action: .record)
    }
}

/// `streak undo HABIT... [--date D]`.
struct UndoCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "undo",
        abstract: "Take back habits' completions on a day.",
        discussion: """
            Examples:
              streak undo Meditate
              streak undo med read --date yesterday
            """
    )
    @OptionGroup var global: GlobalOptions
    @OptionGroup var options: CompletionOptions

    func run() async throws {
        try await options.run(global: global, action: .remove)
    }
}
