import ArgumentParser
import StreakCLI
import StreakClient
import StreakCore
import StreakWire

/// `streak habit add|list|rename|archive`.
struct HabitCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "habit",
        abstract: "Add, list, rename, archive, unarchive, delete and schedule habits.",
        discussion: """
            Examples:
              streak habit add Meditate
              streak habit                 # the list
              streak habit list --all      # archived habits too
            """,
        subcommands: [
            Add.self, List.self, Rename.self, Archive.self, Unarchive.self, Delete.self, ScheduleCommand.self,
        ],
        defaultSubcommand: List.self
    )

    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Add a habit.",
            discussion: """
                Examples:
                  streak habit add Read
                  streak habit add Gym --on mon,wed,fri
                  streak habit add "Morning run" --date 2025-01-01
                """
        )
        @OptionGroup var global: GlobalOptions
        @Argument(help: "The habit's name (1 to 200 Unicode scalars: characters, for most text).") var name: String
        @Option(
            parsing: .unconditional,
            help: ArgumentHelp("The first day it counts (default: --as-of, else today).", valueName: "date")
        )
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
                let typed = name
                let name = HabitResolver.cleaned(typed)
                // The server's rule, before the names are listed to refuse a taken one (a blank
                // name is refused as typed: "needs a character that is not white space").
                if let problem = HabitName.problem(name.isEmpty ? typed : name) { throw CLIFailure(.badInput, problem) }
                let createdOn = try await context.date(date, option: "--date") ?? context.asOf
                let weekdays = try on.map { text throws(CLIFailure) in try WeekdayListArgument.parse(text) }
                try HabitResolver.refuseTaken(name, among: try await context.client.listHabits(includeArchived: true))
                let habit = try await context.client.createHabit(name: name, createdOn: createdOn, weekdays: weekdays)
                try context.emit(
                    json: .object([("habit", WireJSON.habit(habit))]),
                    text: "added habit \(habit.id) '\(habit.name)' from \(habit.createdOn.map { "\($0)" } ?? "today")\n"
                )
            }
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List habits (those live today; one archived from a later day shows that day).",
            discussion: """
                Examples:
                  streak habit list
                  streak habit list --all --json
                """
        )
        @OptionGroup var global: GlobalOptions
        @Flag(help: "Include archived habits.") var all = false

        func run() async throws {
            try await global.run(usesToday: false) { context in
                let habits = try await context.client.listHabits(includeArchived: all)
                // The user's today picks each schedule's entry in effect: asked only when needed.
                let today = habits.contains { !$0.schedule.isEmpty } ? try await context.today() : .min
                try context.emit(
                    json: .object([("habits", .array(habits.map(WireJSON.habit)))]),
                    text: HabitListRenderer.render(
                        habits,
                        today: today,
                        style: context.style,
                        width: TerminalWidth.limit()
                    )
                )
            }
        }
    }

    struct Rename: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Rename a habit.",
            discussion: """
                Examples:
                  streak habit rename Read "Read 20 pages"
                  streak habit rename 3 Swim
                """
        )
        @OptionGroup var global: GlobalOptions
        @Argument(help: "The habit: its name, a prefix of it, or its id.", completion: HabitCompletion.kind)
        var habit: String
        @Argument(help: "The new name.") var newName: String

        func run() async throws {
            try await global.run(usesToday: false) { context in
                let habits = try await context.client.listHabits(includeArchived: true)
                let found = try HabitResolver.resolve(habit, among: habits)
                // A blank name goes as typed, to be refused as blank.
                let cleaned = HabitResolver.cleaned(newName)
                let newName = cleaned.isEmpty ? newName : cleaned
                try HabitResolver.refuseTaken(newName, among: habits, except: found.id)
                let renamed = try await context.client.renameHabit(id: found.id, to: newName)
                try context.emit(
                    json: .object([("habit", WireJSON.habit(renamed))]),
                    text: "renamed habit \(renamed.id) to '\(renamed.name)'\n"
                )
            }
        }
    }

    struct Archive: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Archive a habit: it stops counting from a day on; history stays.",
            discussion: """
                Examples:
                  streak habit archive Gym                    # from today
                  streak habit archive Gym --date 2025-07-01  # counts until then
                """
        )
        @OptionGroup var global: GlobalOptions
        @Argument(help: "The habit: its name, a prefix of it, or its id.", completion: HabitCompletion.kind)
        var habit: String
        @Option(
            parsing: .unconditional,
            help: ArgumentHelp("The first day it no longer counts (default: --as-of, else today).", valueName: "date")
        )
        var date: String?

        func run() async throws {
            try await global.run { context in
                let on = try await context.date(date, option: "--date") ?? context.asOf
                let found = try await HabitResolver.resolve(habit, client: context.client)
                let archived = try await HabitNaming.naming([found]) {
                    try await context.client.archiveHabit(id: found.id, on: on)
                }
                let day = archived.archivedOn.map { "\($0)" } ?? "today"
                try context.emit(
                    json: .object([("habit", WireJSON.habit(archived))]),
                    text: "archived habit \(archived.id) '\(archived.name)' from \(day)\n"
                )
            }
        }
    }
}
