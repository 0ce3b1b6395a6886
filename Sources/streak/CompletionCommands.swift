import ArgumentParser
import StreakCLI
import StreakClient
import StreakWire

/// The options of `done` and `undo`.
struct CompletionOptions: ParsableArguments {
    @Argument(help: "The habit: its name or id.") var habit: String
    @Option(help: ArgumentHelp("The day (default: --as-of, else today).", valueName: "YYYY-MM-DD")) var date: String?

    func run(global: GlobalOptions, record: Bool) async throws {
        try await global.run { context in
            let day = try date.map { try CLIFailure.parseDate($0, option: "--date") } ?? context.asOf
            let found = try await HabitResolver.resolve(habit, client: context.client)
            let response =
                record
                ? try await context.client.recordCompletion(habitID: found.id, date: day, asOf: context.asOf)
                : try await context.client.removeCompletion(habitID: found.id, date: day, asOf: context.asOf)
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
        try await options.run(global: global, record: true)
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
        try await options.run(global: global, record: false)
    }
}
