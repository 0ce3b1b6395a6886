import ArgumentParser
import StreakCLI
import StreakClient
import StreakCore
import StreakWire

/// `streak skip HABIT [--date D]`: excuse a habit on a day.
struct SkipCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "skip",
        abstract: "Excuse habits on a day: they neither count nor break the streak.",
        discussion: """
            Skipping a day the habit was done takes the completion back.

            Examples:
              streak skip Gym                    # today
              streak skip Gym --date 2024-03-05
              streak skip gym read --date yesterday
            """
    )
    @OptionGroup var global: GlobalOptions
    @OptionGroup var options: CompletionOptions

    func run() async throws {
        try await options.run(global: global, action: .skip)
    }
}

/// `streak unskip HABIT [--date D]`.
struct UnskipCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "unskip",
        abstract: "Take back a skip: the day is open again.",
        discussion: """
            Examples:
              streak unskip Gym
              streak unskip Gym --date 2024-03-05
            """
    )
    @OptionGroup var global: GlobalOptions
    @OptionGroup var options: CompletionOptions

    func run() async throws {
        try await options.run(global: global, action: .unskip)
    }
}

/// `streak habit schedule HABIT --on mon,wed,fri [--from D]`.
struct ScheduleCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "schedule",
        abstract: "Set the weekdays a habit is expected on, from a day on (the days before keep theirs).",
        discussion: """
            Examples:
              streak habit schedule Gym --on mon,wed,fri --from 2024-03-04
              streak habit schedule Gym --on weekends
              streak habit schedule Gym --on daily --from monday
            """
    )
    @OptionGroup var global: GlobalOptions
    @Argument(help: "The habit: its name, a prefix of it, or its id.", completion: HabitCompletion.kind) var habit:
        String
    @Option(help: ArgumentHelp("mon,wed,fri, or daily, weekdays, weekends.", valueName: "days")) var on: String
    @Option(
        parsing: .unconditional,
        help: ArgumentHelp("The first day it applies (default: --as-of, else today).", valueName: "date")
    )
    var from: String?

    func run() async throws {
        try await global.run { context in
            let weekdays = try WeekdayListArgument.parse(on)
            let start = try await context.date(from, option: "--from") ?? context.asOf
            let found = try await HabitResolver.resolve(habit, client: context.client)
            let changed = try await HabitNaming.naming([found]) {
                try await context.client.setSchedule(habitID: found.id, weekdays: weekdays, from: start)
            }
            let today = try await context.today()
            var shown = HabitListRenderer.schedule(changed, on: today)
            // The change itself first when that text does not show it: neither in effect today nor
            // the next change (a later change already in effect, or one before it still to come).
            let entries = changed.schedule
            let current = entries.lastIndex { ($0.effectiveFrom ?? .min) <= today }
            let set = entries.firstIndex { $0.effectiveFrom == (start ?? today) }
            if let set, set != current, set != (current.map { $0 + 1 } ?? 0) {
                shown = "\(HabitListRenderer.days(weekdays)) from \(start ?? today); today: \(shown)"
            }
            try context.emit(
                json: .object([("habit", WireJSON.habit(changed))]),
                text: "habit \(changed.id) '\(changed.name)': \(shown)\n"
            )
        }
    }
}

/// Parses `--on`: a comma-separated weekday list or `daily`, `weekdays`, `weekends`.
enum WeekdayListArgument {
    static func parse(_ text: String) throws(CLIFailure) -> [Weekday] {
        guard let weekdays = WeekdayNames.weekdays(list: text), !weekdays.isEmpty else {
            throw CLIFailure(
                .badInput,
                "--on '\(text)' is not a list of weekdays (e.g. mon,wed,fri, or daily, weekdays, weekends)"
            )
        }
        return weekdays
    }
}
