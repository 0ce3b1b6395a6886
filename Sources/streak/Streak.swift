import ArgumentParser
import Foundation
import StreakCLI
import StreakWire

/// The `streak` command: habits, completions, the heatmap and the streak from a terminal.
@main
struct Streak: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "streak",
        abstract: "Track habits and see their heatmap and streak (a client of streakd).",
        discussion: """
            `streak` alone shows today: each habit done, skipped or open, and the streak.

            The server is --server, else STREAK_SERVER, else 127.0.0.1:7411. The token is --token, \
            else STREAK_TOKEN, else the file a local streakd writes: $STREAKD_DATA_DIR/token, \
            $XDG_DATA_HOME/streakd/token or ~/.local/share/streakd/token. TLS: --tls (or \
            STREAK_TLS=1) verifies streakd's certificate against the system store, or --ca-file (or \
            STREAK_CA_FILE), for --server's host or --tls-server-name.

            Dates: YYYY-MM-DD, today, yesterday, -N (N days ago) or a weekday name (the most recent \
            one, today included), in your time zone on the server (streak settings --time-zone local).

            Exit codes: 0 ok, 64 usage, 65 bad input (dates, unknown habits), 69 streakd unreachable (or its TLS certificate refused), \
            70 server error, 73 cannot write the -o file, 74 output not writable, 75 deadline exceeded, \
            77 not authenticated. See docs/CLI.md.

            Examples:
              streak habit add Meditate
              streak done Meditate
              streak
              streak heatmap
              streak report -o report.html
            """,
        version: StreakdRelease.version,
        subcommands: [
            TodayCommand.self, HabitCommand.self, DoneCommand.self, UndoCommand.self, DayCommand.self,
            HeatmapCommand.self, StreakSummaryCommand.self, WeekdaysCommand.self, CalendarCommand.self,
            SettingsCommand.self, SkipCommand.self, UnskipCommand.self, RestCommand.self, WatchCommand.self,
            SampleCommand.self, ExportCommand.self, ImportCommand.self, CompletionsCommand.self,
            ReportCommand.self, ServerCommand.self,
        ]
    )

    @OptionGroup var global: GlobalOptions

    /// Checks for a mistyped subcommand ("did you mean `heatmap`?") and runs `today` when no
    /// subcommand is named, before the usual parsing. (`today` is not argument-parser's default
    /// subcommand: that would send `streak --as-of D heatmap` to `today` as well.)
    static func main() async {
        var arguments = Array(CommandLine.arguments.dropFirst())
        if UnknownSubcommand.namesNoSubcommand(arguments) {
            arguments.insert(TodayCommand._commandName, at: 0)
        }
        if let message = UnknownSubcommand.message(for: arguments, root: Streak.self) {
            FileHandle.standardError.write(Data("streak: \(message)\n".utf8))
            Foundation.exit(CLIFailure.ExitStatus.usage.rawValue)
        }
        await Self.main(arguments)
    }
}
