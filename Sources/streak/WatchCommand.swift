import ArgumentParser
import Foundation
import StreakCLI
import StreakClient
import StreakWire

/// `streak watch`: one line per completion change until interrupted.
struct WatchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "watch",
        abstract: "Print each change to your completions as it happens (one JSON object per line with --json)."
    )
    @OptionGroup var global: GlobalOptions
    @Option(help: ArgumentHelp("Stop after this many events.", valueName: "n")) var count: Int?

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
                context.emit(
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
