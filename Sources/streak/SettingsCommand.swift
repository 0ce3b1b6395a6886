import ArgumentParser
import StreakCLI
import StreakClient
import StreakWire

/// `streak settings [--time-zone --locale --week-start --min-percent | --clear-min-percent]`.
struct SettingsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "settings",
        abstract: "Show your settings, or change those given."
    )
    @OptionGroup var global: GlobalOptions
    @Option(help: ArgumentHelp("An IANA time zone, e.g. Europe/Berlin.", valueName: "zone")) var timeZone: String?
    @Option(help: ArgumentHelp("A locale for names and week order, e.g. en_GB.", valueName: "id")) var locale: String?
    @Option(help: ArgumentHelp("The heatmap's first row, e.g. monday.", valueName: "weekday")) var weekStart: String?
    @Option(help: ArgumentHelp("The streak threshold, 1...100 percent of active habits.", valueName: "n"))
    var minPercent: Int?
    @Flag(help: "Back to the default threshold: at least one habit.") var clearMinPercent = false

    func run() async throws {
        try await global.run { context in
            let settings: WireSettings
            if timeZone == nil && locale == nil && weekStart == nil && minPercent == nil && !clearMinPercent {
                settings = try await context.client.settings()
            } else {
                var request = WireUpdateSettingsRequest()
                request.timeZone = timeZone ?? ""
                request.locale = locale ?? ""
                if let weekStart {
                    guard let weekday = WeekdayNames.weekday(named: weekStart) else {
                        throw CLIFailure(.badInput, "--week-start '\(weekStart)' is not a weekday (monday...sunday)")
                    }
                    request.weekStart = weekday
                }
                if let minPercent {
                    guard (1...100).contains(minPercent) else {
                        throw CLIFailure(.badInput, "--min-percent \(minPercent) is outside 1...100")
                    }
                    request.minPercent = Int32(minPercent)
                }
                request.clearMinPercent = clearMinPercent
                settings = try await context.client.updateSettings(request)
            }
            context.emit(
                json: WireJSON.settings(settings),
                text: SettingsRenderer.render(settings, style: context.style)
            )
        }
    }
}
