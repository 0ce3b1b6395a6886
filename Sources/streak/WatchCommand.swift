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
            Without --count it watches until interrupted (Ctrl-C). With --lifecycle it also prints a \
            line when a new day starts and when your settings change (then re-read what you show).

            Examples:
              streak watch
              streak watch --json --count 1     # wait for the next change, then exit
              streak watch --lifecycle
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
    @Flag(
        help: """
            Also print a line when a new day starts ("new day") and when your settings change \
            ("settings changed"); with --json every object gets a "kind".
            """
    )
    var lifecycle = false

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
            let request = WireWatchRequest(asOf: context.asOf, lifecycleEvents: lifecycle)
            let events = try await context.client.watch(request) { lost in
                FileHandle.standardError.write(
                    Data("streak: the watch was interrupted (\(lost)); reconnected to streakd at \(server)\n".utf8)
                )
            }
            var seen = 0
            if !context.json {
                FileHandle.standardError.write(Data("watching for changes; press Ctrl-C to stop\n".utf8))
            }
            for try await event in events {
                // SUBSCRIBED (again after each reconnection) says only that the stream is registered.
                if event.kind == .subscribed { continue }
                try emit(event, context: context)
                seen += 1
                if let count, seen >= count { break }
            }
        }
    }

    /// One event's line: without --lifecycle exactly the line of a changed day, as before the
    /// flag existed.
    private func emit(_ event: WireWatchEvent, context: CommandContext) throws(CLIFailure) {
        let day = DayRecordRenderer.render(day: event.day, streak: event.streak, style: context.style)
        guard lifecycle else {
            try context.emit(
                json: .object([("day", WireJSON.dayRecord(event.day)), ("streak", WireJSON.streak(event.streak))]),
                text: day,
                compact: true
            )
            return
        }
        let (kind, prefix): (String, String) =
            switch event.kind {
            case .dayChanged: ("day_changed", "")
            case .dayStarted: ("day_started", "new day  ")
            case .settingsChanged: ("settings_changed", "settings changed  ")
            default: ("\(event.kind.rawValue)", "event \(event.kind.rawValue)  ")
            }
        var fields: [(String, JSONValue)] = [("kind", .string(kind))]
        if let record = event.day { fields.append(("day", WireJSON.dayRecord(record))) }
        fields.append(("streak", WireJSON.streak(event.streak)))
        try context.emit(json: .object(fields), text: prefix + day, compact: true)
    }
}
