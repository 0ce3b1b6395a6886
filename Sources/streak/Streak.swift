import ArgumentParser

/// The `streak` command: habits, completions, the heatmap and the streak from a terminal.
@main
struct Streak: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "streak",
        abstract: "Track habits and see their heatmap and streak (a client of streakd).",
        discussion: """
            The server is --server, else STREAK_SERVER, else 127.0.0.1:7411. The token is --token, \
            else STREAK_TOKEN, else the file a local streakd writes: $STREAKD_DATA_DIR/token, \
            $XDG_DATA_HOME/streakd/token or ~/.local/share/streakd/token.

            Exit codes: 0 ok, 64 usage, 65 bad input (dates, unknown habits), 69 streakd unreachable, \
            70 server error, 73 cannot write the -o file, 75 deadline exceeded, 77 not authenticated. See docs/CLI.md.
            """,
        subcommands: [
            HabitCommand.self, DoneCommand.self, UndoCommand.self, DayCommand.self, HeatmapCommand.self,
            StreakSummaryCommand.self, WeekdaysCommand.self, CalendarCommand.self, SettingsCommand.self,
            SkipCommand.self, UnskipCommand.self, RestCommand.self, WatchCommand.self, SampleCommand.self,
            ReportCommand.self,
        ]
    )

    @OptionGroup var global: GlobalOptions
}
