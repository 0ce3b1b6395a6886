import ArgumentParser
import Foundation
import StreakCLI
import StreakClient
import StreakWire

/// `streak watch`: one line per completion change until interrupted.
struct WatchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "watch",
        abstract: "Print each change to your completions as it happens (one JSON object per line with --json).",
        discussion: """
            Without --count it watches until interrupted (Ctrl-C).

            Examples:
              streak watch
              streak watch --json --count 1     # wait for the next change, then exit
            """
    )
    @OptionGroup var global: GlobalOptions
    @Option(
        help: ArgumentHelp(
            "Stop after this many events (1 or more; leave it out to watch until interrupted).",
            valueName: "n"
        )
    )
    var count: Int?

    func validate() throws {
        if let count, count < 1 {
            throw ValidationError("--count must be 1 or more; leave it out to watch until interrupted.")
        }
    }

    func run() async throws {
        try await global.run { context in
            let server = context.client.configuration.server
            // The library resubscribes when streakd restarts or goes away; say so, since changes made
            // in between are not shown.
            let events = try await context.client.watch(WireWatchRequest(asOf: context.asOf)) { lost in
                FileHandle.standardError.write(
                    Data("streak: the watch was interrupted (\(lost)); reconnected to streakd at \(server)\n".utf8)
                )
            }
            var seen = 0
            if !context.json {
                FileHandle.standardError.write(Data("watching for changes; press Ctrl-C to stop\n".utf8))
            }
            for try await event in events {
                try context.emit(
                    json: .object([("day", WireJSON.dayRecord(event.day)), ("streak", WireJSON.streak(event.streak))]),
                    text: DayRecordRenderer.render(day: event.day, streak: event.streak, style: context.style),
                    compact: true
                )
                seen += 1
                if let count, seen >= count { break }
            }
        }
    }
}
