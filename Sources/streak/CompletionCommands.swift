import ArgumentParser
import StreakCLI
import StreakClient
import StreakWire

/// The options of `done` and `undo`.
struct CompletionOptions: ParsableArguments {
    @Argument(help: "The habit: its name or id.") var habit: String
    @Option(help: ArgumentHelp("The day (default: --as-of, else today).", valueName: "YYYY-MM-DD")) var date: String?

    /// What the command does to the habit's day.
    enum Action {
        case record, remove, skip, unskip
    }

    func run(global: GlobalOptions, action: Action) async throws {
        try await global.run { context in
            let day = try date.map { try CLIFailure.parseDate($0, option: "--date") } ?? context.asOf
            let found = try await HabitResolver.resolve(habit, client: context.client)
            let client = context.client
            let response: WireCompletionResponse =
                switch action {
                case .record: try await client.recordCompletion(habitID: found.id, date: day, asOf: context.asOf)
                case .remove: try await client.removeCompletion(habitID: found.id, date: day, asOf: context.asOf)
                case .skip: try await client.skip(habitID: found.id, date: day, asOf: context.asOf)
                case .unskip: try await client.unskip(habitID: found.id, date: day, asOf: context.asOf)
                }
            context.emit(
                json: .object([
                    ("changed", .bool(response.changed)), ("day", WireJSON.dayRecord(response.day)),
                    ("streak", WireJSON.streak(response.streak)),
                ]),
                text: DayRecordRenderer.render(
                    day: response.day,
                    streak: response.streak,
                    changed: response.changed,
                    style: context.style
                )
            )
        }
    }
}

/// `streak done HABIT [--date D]`.
struct DoneCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "done", abstract: "Mark a habit done on a day.")
    @OptionGroup var global: GlobalOptions
    @OptionGroup var options: CompletionOptions

    func run() async throws {
        try await options.run(global: global, action: .record)
    }
}

/// `streak undo HABIT [--date D]`.
struct UndoCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "undo",
        abstract: "Take back a habit's completion on a day."
    )
    @OptionGroup var global: GlobalOptions
    @OptionGroup var options: CompletionOptions

    func run() async throws {
        try await options.run(global: global, action: .remove)
    }
}
