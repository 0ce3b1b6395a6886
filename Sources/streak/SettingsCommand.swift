import ArgumentParser
import StreakCLI
import StreakClient
import StreakCore
import StreakPOSIX
import StreakWire

/// `streak settings [--time-zone --locale --week-start --min-percent | --clear-min-percent]`.
struct SettingsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "settings",
        abstract: "Show your settings, or change those given.",
        discussion: """
            Examples:
              streak settings
              streak settings --time-zone local          # this machine's zone
              streak settings --time-zone Europe/Berlin --locale de_DE
              streak settings --min-percent 60
              streak settings --day-start 03:00
            """
    )
    @OptionGroup var global: GlobalOptions
    @Option(help: ArgumentHelp("An IANA time zone, e.g. Europe/Berlin, or local (this machine's).", valueName: "zone"))
    var timeZone: String?
    @Option(help: ArgumentHelp("A locale for names and week order, e.g. en_GB.", valueName: "id")) var locale: String?
    @Option(help: ArgumentHelp("The heatmap's first row, e.g. monday.", valueName: "weekday")) var weekStart: String?
    @Option(help: ArgumentHelp("The streak threshold, 1...100 percent of active habits.", valueName: "n"))
    var minPercent: Int?
    @Flag(help: "Back to the default threshold: at least one habit.") var clearMinPercent = false
    @Option(help: ArgumentHelp("When your day begins, 00:00...12:00 (e.g. 03:00 for night owls).", valueName: "HH:MM"))
    var dayStart: String?

    func validate() throws {
        if minPercent != nil && clearMinPercent {
            throw ValidationError("--min-percent and --clear-min-percent contradict each other; give one.")
        }
    }

    func run() async throws {
        try await global.run(usesToday: false) { context in
            let settings: WireSettings
            if timeZone == nil && locale == nil && weekStart == nil && minPercent == nil && !clearMinPercent
                && dayStart == nil
            {
                settings = try await context.client.settings()
            } else {
                var request = WireUpdateSettingsRequest()
                request.timeZone =
                    try timeZone.map { text throws(CLIFailure) in try SettingsArgument.timeZone(text) } ?? ""
                request.locale = try locale.map { text throws(CLIFailure) in try SettingsArgument.locale(text) } ?? ""
                if let weekStart {
                    guard let weekday = WeekdayNames.weekday(named: weekStart) else {
                        throw CLIFailure(.badInput, "--week-start '\(weekStart)' is not a weekday (monday...sunday)")
                    }
                    request.weekStart = weekday
                }
                if let minPercent {
                    let range = StreakThreshold.percentRange
                    guard range.contains(minPercent) else {
                        throw CLIFailure(
                            .badInput,
                            "--min-percent \(minPercent) is outside \(range.lowerBound)...\(range.upperBound)"
                        )
                    }
                    request.minPercent = Int32(minPercent)
                }
                request.clearMinPercent = clearMinPercent
                if let dayStart {
                    request.setDayStart = true
                    request.dayStartMinutes = Int32(try DayStartArgument.parse(dayStart))
                }
                settings = try await context.client.updateSettings(request)
            }
            try context.emit(
                json: WireJSON.settings(settings),
                text: SettingsRenderer.render(settings, style: context.style)
            )
        }
    }
}

/// Parses `--day-start HH:MM` (00:00...12:00) into minutes after midnight.
enum DayStartArgument {
    static func parse(_ text: String) throws(CLIFailure) -> Int {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, parts[1].count == 2, (1...2).contains(parts[0].count),
            let hours = Int(parts[0]), let minutes = Int(parts[1]), (0..<60).contains(minutes),
            (0...720).contains(hours * 60 + minutes)
        else {
            throw CLIFailure(.badInput, "--day-start '\(text)' is not a time HH:MM between 00:00 and 12:00")
        }
        return hours * 60 + minutes
    }
}
