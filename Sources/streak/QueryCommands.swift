import ArgumentParser
import StreakCLI
import StreakClient
import StreakCore
import StreakWire

/// `streak day DATE`.
struct DayCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "day",
        abstract: "Show a day: the habits done and its percentage."
    )
    @OptionGroup var global: GlobalOptions
    @Argument(help: ArgumentHelp("The day.", valueName: "YYYY-MM-DD")) var date: String
    @OptionGroup var filter: HabitFilter

    func run() async throws {
        try await global.run { context in
            let date = try CLIFailure.parseDate(date, option: "DATE")
            let day = try await context.client.day(date, habitIDs: try await filter.ids(client: context.client))
            context.emit(json: WireJSON.dayDetail(day), text: DayRenderer.render(day, style: context.style))
        }
    }
}

/// `streak heatmap [--from --to --week-start] [--format --theme -o --months]`.
struct HeatmapCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "heatmap",
        abstract: "Draw the heatmap (default: twelve months up to today)."
    )
    @OptionGroup var global: GlobalOptions
    @Option(
        help: ArgumentHelp("The first day (default: the 1st of the month 11 months back).", valueName: "YYYY-MM-DD")
    )
    var from: String?
    @Option(help: ArgumentHelp("The last day (default: --as-of, else today).", valueName: "YYYY-MM-DD"))
    var to: String?
    @Option(
        help: ArgumentHelp(
            "The first row: a weekday (monday) or a locale (en_US); default: your setting.",
            valueName: "day"
        )
    )
    var weekStart: String?
    @OptionGroup var filter: HabitFilter
    @OptionGroup var output: HeatmapFormatOptions

    func run() async throws {
        try await global.run { context in
            var request = WireGetHeatmapRequest()
            request.habitIds = try await filter.ids(client: context.client)
            request.from = try from.map { try CLIFailure.parseDate($0, option: "--from") }
            request.to = try to.map { try CLIFailure.parseDate($0, option: "--to") }
            request.asOf = context.asOf
            request.weekStart = try weekStart.map(WeekStartArgument.parse)
            let heatmap = try await output.heatmap(request, context: context)
            try await output.emit(heatmap, habitIDs: request.habitIds, context: context)
        }
    }
}

/// `streak streak`.
struct StreakSummaryCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "streak",
        abstract: "Show the current and the longest streak."
    )
    @OptionGroup var global: GlobalOptions
    @OptionGroup var filter: HabitFilter

    func run() async throws {
        try await global.run { context in
            let ids = try await filter.ids(client: context.client)
            let streak = try await context.client.streak(asOf: context.asOf, habitIDs: ids)
            context.emit(json: WireJSON.streak(streak), text: StreakRenderer.render(streak, style: context.style))
        }
    }
}

/// `streak weekdays [--from --to]`.
struct WeekdaysCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "weekdays",
        abstract: "Chart completions per weekday, in your locale's week order."
    )
    @OptionGroup var global: GlobalOptions
    @Option(help: ArgumentHelp("The first day (default: all history).", valueName: "YYYY-MM-DD")) var from: String?
    @Option(help: ArgumentHelp("The last day (default: --as-of, else today).", valueName: "YYYY-MM-DD")) var to: String?
    @OptionGroup var filter: HabitFilter

    func run() async throws {
        try await global.run { context in
            var request = WireGetWeekdayChartRequest()
            request.habitIds = try await filter.ids(client: context.client)
            request.from = try from.map { try CLIFailure.parseDate($0, option: "--from") }
            request.to = try to.map { try CLIFailure.parseDate($0, option: "--to") }
            request.asOf = context.asOf
            request.includeTotal = true
            let chart = try await context.client.weekdayChart(request)
            context.emit(
                json: WireJSON.weekdayChart(chart),
                text: WeekdayChartRenderer.render(chart, style: context.style)
            )
        }
    }
}

/// `streak calendar [YYYY-MM]`.
struct CalendarCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "calendar",
        abstract: "Show a month like cal, with the days that count towards the streak marked."
    )
    @OptionGroup var global: GlobalOptions
    @Argument(help: ArgumentHelp("The month (default: the month of --as-of, else this month).", valueName: "YYYY-MM"))
    var month: String?
    @Option(help: ArgumentHelp("The first column: a weekday or a locale; default: your locale's.", valueName: "day"))
    var weekStart: String?
    @OptionGroup var filter: HabitFilter

    func run() async throws {
        try await global.run { context in
            var request = WireGetMonthPageRequest()
            request.habitIds = try await filter.ids(client: context.client)
            if let month {
                let date = try CLIFailure.parseDate(month + "-01", option: "YYYY-MM")
                request.year = Int32(date.year)
                request.month = Int32(date.month)
            }
            request.asOf = context.asOf
            request.weekStart = try weekStart.map(WeekStartArgument.parse)
            let page = try await context.client.monthPage(request)
            context.emit(json: WireJSON.monthPage(page), text: MonthPageRenderer.render(page, style: context.style))
        }
    }
}

/// Parses `--week-start`: a weekday name (`monday`, `mon`) or a locale identifier (`en_US`).
enum WeekStartArgument {
    static func parse(_ text: String) throws(CLIFailure) -> WireWeekStart {
        if let weekday = WeekdayNames.weekday(named: text) { return WireWeekStart(kind: .weekday(weekday)) }
        if text.contains("_") || text.contains("-") { return WireWeekStart(kind: .locale(text)) }
        throw CLIFailure(
            .badInput,
            "--week-start '\(text)' is neither a weekday (monday...sunday) nor a locale (en_US)"
        )
    }
}
