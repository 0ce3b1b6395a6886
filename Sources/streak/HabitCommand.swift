import ArgumentParser
import StreakCLI
import StreakClient
import StreakWire

/// `streak habit add|list|rename|archive`.
struct HabitCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "habit",
        abstract: "Add, list, rename, archive and schedule habits.",
        subcommands: [Add.self, List.self, Rename.self, Archive.self, ScheduleCommand.self],
        defaultSubcommand: List.self
    )

    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Add a habit.",
            discussion: "Examples: streak habit add Read; streak habit add Gym --on mon,wed,fri"
        )
        @OptionGroup var global: GlobalOptions
        @Argument(help: "The habit's name (1 to 200 characters).") var name: String
        @Option(help: ArgumentHelp("The first day it counts (default: --as-of, else today).", valueName: "YYYY-MM-DD"))
        var date: String?
        @Option(
            help: ArgumentHelp(
                "The weekdays it is expected on: mon,wed,fri, weekdays, weekends (default: daily).",
                valueName: "days"
            )
        )
        var on: String?

        func run() async throws {
            try await global.run { context in
                let createdOn = try date.map { try CLIFailure.parseDate($0, option: "--date") } ?? context.asOf
                let weekdays = try on.map { text throws(CLIFailure) in try WeekdayListArgument.parse(text) }
                let habit = try await context.client.createHabit(name: name, createdOn: createdOn, weekdays: weekdays)
                context.emit(
                    json: .object([("habit", WireJSON.habit(habit))]),
                    text: "added habit \(habit.id) '\(habit.name)' from \(habit.createdOn.map { "\($0)" } ?? "today")\n"
                )
            }
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List habits.")
        @OptionGroup var global: GlobalOptions
        @Flag(help: "Include archived habits.") var all = false

        func run() async throws {
            try await global.run { context in
                let habits = try await context.client.listHabits(includeArchived: all)
                context.emit(
                    json: .object([("habits", .array(habits.map(WireJSON.habit)))]),
                    text: HabitListRenderer.render(habits, style: context.style)
                )
            }
        }
    }

    struct Rename: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Rename a habit.")
        @OptionGroup var global: GlobalOptions
        @Argument(help: "The habit: its name or id.") var habit: String
        @Argument(help: "The new name.") var newName: String

        func run() async throws {
            try await global.run { context in
                let found = try await HabitResolver.resolve(habit, client: context.client)
                let renamed = try await context.client.renameHabit(id: found.id, to: newName)
                context.emit(
                    json: .object([("habit", WireJSON.habit(renamed))]),
                    text: "renamed habit \(renamed.id) to '\(renamed.name)'\n"
                )
            }
        }
    }

    struct Archive: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Archive a habit: it stops counting from a day on; history stays."
        )
        @OptionGroup var global: GlobalOptions
        @Argument(help: "The habit: its name or id.") var habit: String
        @Option(
            help: ArgumentHelp(
                "The first day it no longer counts (default: --as-of, else today).",
                valueName: "YYYY-MM-DD"
            )
        )
        var date: String?

        func run() async throws {
            try await global.run { context in
                let on = try date.map { try CLIFailure.parseDate($0, option: "--date") } ?? context.asOf
                let found = try await HabitResolver.resolve(habit, client: context.client)
                let archived = try await context.client.archiveHabit(id: found.id, on: on)
                let day = archived.archivedOn.map { "\($0)" } ?? "today"
                context.emit(
                    json: .object([("habit", WireJSON.habit(archived))]),
                    text: "archived habit \(archived.id) '\(archived.name)' from \(day)\n"
                )
            }
        }
    }
}
