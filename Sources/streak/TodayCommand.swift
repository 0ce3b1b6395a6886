import ArgumentParser
import StreakCLI
import StreakClient
import StreakCore
import StreakWire

/// `streak` alone, or `streak today`: what is done and what is left today.
struct TodayCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "today",
        abstract: "Today at a glance: each habit done, skipped or open, with its streak (what `streak` alone shows).",
        discussion: """
            Examples:
              streak                      # today
              streak today --date yesterday
              streak done Meditate && streak
            """
    )
    @OptionGroup var global: GlobalOptions
    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "The day (default: --as-of, else today): YYYY-MM-DD, yesterday, -N, monday.",
            valueName: "date"
        )
    )
    var date: String?
    @Flag(help: "Accept a --date after today.") var allowFuture = false

    func run() async throws {
        try await global.run(usesToday: date == nil) { context in
            let date = try await context.dateOrToday(date, option: "--date", allowFuture: allowFuture)
            let client = context.client
            let asOf = date
            async let habits = client.listHabits(includeArchived: true)
            async let day = client.day(date)
            async let overall = client.streak(asOf: asOf)
            let all = try await habits
            let active = TodayView.activeHabits(all, on: date)
            let detail = try await day
            // Every habit's streak is asked at once: the calls share the connection, so the
            // answers take one round trip instead of one each.
            let streaks = try await withThrowingTaskGroup(of: (Int, WireStreakSummary).self) { group in
                for (index, habit) in active.enumerated() {
                    group.addTask { (index, try await client.streak(asOf: asOf, habitIDs: [habit.id])) }
                }
                var streaks: [(Int, WireStreakSummary)] = []
                for try await answer in group { streaks.append(answer) }
                return streaks.sorted { $0.0 < $1.0 }.map(\.1)
            }
            let lines = zip(active, streaks).map { habit, streak in
                TodayView.Line(habit: habit, state: TodayView.state(of: habit, in: detail), streak: streak)
            }
            let view = TodayView(date: date, lines: lines, day: detail, streak: try await overall, allHabits: all)
            try context.emit(
                json: WireJSON.today(view),
                text: TodayRenderer.render(view, style: context.style, width: TerminalWidth.limit())
            )
        }
    }
}
