import ArgumentParser
import StreakCLI
import StreakClient
import StreakCore
import StreakWire

/// `streak day DATE`.
struct DayCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "day",
        abstract: "Show a day: the habits done, skipped and still open, and its percentage.",
        // The argument is an array only so that `-1` is not taken for an option: one day at most.
        usage: "streak day [<options>] [<date>]",
        discussion: """
            Examples:
              streak day                 # today
              streak day yesterday
              streak day 2025-06-10 --habit Meditate
            """
    )
    @OptionGroup var global: GlobalOptions
    // All unrecognized words: `-1` (a day ago) would otherwise be taken for an option.
    @Argument(
        parsing: .allUnrecognized,
        help: ArgumentHelp(
            "The day (default: --as-of, else today): YYYY-MM-DD, yesterday, -N, monday.",
            valueName: "date"
        )
    )
    var dates: [String] = []

    var date: String? { dates.first }

    func validate() throws {
        if dates.count > 1 {
            throw ValidationError("Give one day, not \(dates.count): \(dates.joined(separator: " "))")
        }
    }
    @OptionGroup var filter: HabitFilter

    func run() async throws {
        try await global.run(usesToday: date == nil) { context in
            let date = try await context.dateOrToday(date, option: "DATE")
            let day = try await context.client.day(date, habitIDs: try await filter.ids(client: context.client))
            try context.emit(json: WireJSON.dayDetail(day), text: DayRenderer.render(day, style: context.style))
        }
    }
}

/// `streak heatmap [--from --to --week-start] [--format --theme -o --months]`.
struct HeatmapCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "heatmap",
        abstract: "Draw the heatmap (default: the 1st of the month 11 months back through today).",
        discussion: """
            Examples:
              streak heatmap
              streak heatmap --from 2025-01-01 --to 2025-03-31 --week-start sunday
              streak heatmap --habit Meditate --json
            """
    )
    @OptionGroup var global: GlobalOptions
    @Option(
        parsing: .unconditional,
        help: ArgumentHelp("The first day (default: the 1st of the month 11 months back).", valueName: "date")
    )
    var from: String?
    @Option(
        parsing: .unconditional,
        help: ArgumentHelp("The last day (default: --as-of, else today).", valueName: "date")
    )
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
            request.from = try await context.date(from, option: "--from")
            request.to = try await context.date(to, option: "--to")
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
        abstract: "Show the current and the longest streak.",
        discussion: """
            Examples:
              streak streak
              streak streak --habit Meditate
              streak --as-of yesterday streak --json
            """
    )
    @OptionGroup var global: GlobalOptions
    @OptionGroup var filter: HabitFilter

    func run() async throws {
        try await global.run { context in
            let ids = try await filter.ids(client: context.client)
            let streak = try await context.client.streak(asOf: context.asOf, habitIDs: ids)
            let text = StreakRenderer.render(
                streak,
                style: context.style,
                nothingDueToday: try await context.nothingDue(pending: streak, habitIDs: ids)
            )
            try context.emit(json: WireJSON.streak(streak), text: text)
        }
    }
}

/// `streak weekdays [--from --to]`.
struct WeekdaysCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "weekdays",
        abstract: "Chart completions per weekday, in your locale's week order.",
        discussion: """
            Examples:
              streak weekdays
              streak weekdays --from 2025-01-01 --habit Gym
            """
    )
    @OptionGroup var global: GlobalOptions
    @Option(parsing: .unconditional, help: ArgumentHelp("The first day (default: all history).", valueName: "date"))
    var from: String?
    @Option(
        parsing: .unconditional,
        help: ArgumentHelp("The last day (default: --as-of, else today).", valueName: "date")
    ) var to: String?
    @OptionGroup var filter: HabitFilter

    func run() async throws {
        try await global.run { context in
            var request = WireGetWeekdayChartRequest()
            request.habitIds = try await filter.ids(client: context.client)
            request.from = try await context.date(from, option: "--from")
            request.to = try await context.date(to, option: "--to")
            request.asOf = context.asOf
            request.includeTotal = true
            let chart = try await context.client.weekdayChart(request)
            try context.emit(
                json: WireJSON.weekdayChart(chart),
                text: WeekdayChartRenderer.render(chart, style: context.style)
            )
        }
    }
}

/// `streak calendar [YYYY-MM | YYYY]`.
struct CalendarCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "calendar",
        abstract: "Show a month (or a year) like cal, with the days that count towards the streak marked.",
        discussion: """
            Examples:
              streak calendar              # this month
              streak calendar 2025-06
              streak calendar 2026         # the whole year, up to three months across
            """
    )
    @OptionGroup var global: GlobalOptions
    @Argument(
        help: ArgumentHelp(
            "A month YYYY-MM or a year YYYY (default: the month of --as-of, else this month).",
            valueName: "month"
        )
    )
    var month: String?
    @Option(help: ArgumentHelp("The first column: a weekday or a locale; default: your locale's.", valueName: "day"))
    var weekStart: String?
    @OptionGroup var filter: HabitFilter

    func run() async throws {
        try await global.run(usesToday: month == nil) { context in
            let period = try month.map { text throws(CLIFailure) in try CalendarPeriod.parse(text) }
            var request = WireGetMonthPageRequest()
            request.habitIds = try await filter.ids(client: context.client)
            request.asOf = context.asOf
            request.weekStart = try weekStart.map(WeekStartArgument.parse)
            switch period {
            case .year(let year):
                var pages: [WireMonthPage] = []
                for month in 1...12 {
                    request.year = Int32(year)
                    request.month = Int32(month)
                    pages.append(try await context.client.monthPage(request))
                }
                let locale = try await localeProfile(context: context)
                try context.emit(
                    json: .object([("year", .int(Int64(year))), ("months", .array(pages.map(WireJSON.monthPage)))]),
                    text: YearRenderer.render(
                        year: year,
                        pages: pages,
                        style: context.style,
                        veryShortSymbols: veryShortSymbols(pages.first, in: locale),
                        monthSymbols: locale?.monthSymbols,
                        width: TerminalWidth.limit()
                    )
                )
            case .month(let year, let month):
                request.year = Int32(year)
                request.month = Int32(month)
                fallthrough
            case nil:
                let page = try await context.client.monthPage(request)
                let veryShort = veryShortSymbols(page, in: try await localeProfile(context: context))
                try context.emit(
                    json: WireJSON.monthPage(page),
                    text: MonthPageRenderer.render(page, style: context.style, veryShortSymbols: veryShort)
                )
            }
        }
    }

    /// The page's weekdays' very short names in the user's locale (the one the server names them
    /// in), for the narrowest header; nil in JSON, or when this machine does not know the locale.
    /// The user's locale as this machine's ICU knows it, for drawing text (nil for JSON output,
    /// or when ICU here does not know the locale: the server's words are drawn as they are).
    private func localeProfile(context: CommandContext) async throws -> LocaleProfile? {
        guard !context.json else { return nil }
        let settings = try await context.settings()
        return try? LocaleProfile.named(settings.locale.isEmpty ? "en_US" : settings.locale)
    }

    private func veryShortSymbols(_ page: WireMonthPage?, in locale: LocaleProfile?) -> [String]? {
        guard let page, let locale else { return nil }
        return WeekdayHeader.veryShortSymbols(matching: page.weekdaySymbols, in: locale)
    }
}

/// The argument of `calendar`: `YYYY-MM` or `YYYY`.
enum CalendarPeriod {
    case month(year: Int, month: Int)
    case year(Int)

    static func parse(_ text: String) throws(CLIFailure) -> CalendarPeriod {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.allSatisfy({ !$0.isEmpty && $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }),
            parts[0].count == 4, let year = Int(parts[0]), (1...9999).contains(year)
        else {
            throw CLIFailure(
                .badInput,
                "calendar '\(text)' is neither a month YYYY-MM nor a year YYYY (e.g. 2026-10, 2026)"
            )
        }
        if parts.count == 1 { return .year(year) }
        guard parts.count == 2, parts[1].count == 2, let month = Int(parts[1]), (1...12).contains(month) else {
            throw CLIFailure(
                .badInput,
                "calendar '\(text)': expected a month as YYYY-MM, with two digits 01 to 12 (e.g. \(year)-06)"
            )
        }
        return .month(year: year, month: month)
    }
}

/// Parses `--week-start`: a weekday name (`monday`, `mon`) or a locale identifier (`en_US`, `de`).
enum WeekStartArgument {
    /// Two-letter weekday abbreviations: `fr` and `th` are also languages (French, Thai), and a
    /// week that starts on the wrong day without a word would be worse than asking.
    static let ambiguous: Set<String> = ["mo", "tu", "we", "th", "fr", "sa", "su"]

    /// A weekday (`monday`, `sun`) or any locale this machine knows (`en_US`, `de`, `zh_TW`).
    static func parse(_ text: String) throws(CLIFailure) -> WireWeekStart {
        if let weekday = WeekdayNames.weekday(named: text) { return WireWeekStart(kind: .weekday(weekday)) }
        if ambiguous.contains(text.lowercased()),
            let weekday = Weekday.allCases.first(where: { WeekdayNames.name($0).hasPrefix(text.lowercased()) })
        {
            throw CLIFailure(
                .badInput,
                "--week-start '\(text)' could be a weekday or a language; write the weekday in full "
                    + "(\(WeekdayNames.name(weekday))) or a locale with its region (e.g. en_US)"
            )
        }
        guard (try? LocaleProfile.named(text)) != nil else {
            throw CLIFailure(
                .badInput,
                "--week-start '\(text)' is neither a weekday (monday...sunday) nor a locale (en_US, de)"
            )
        }
        return WireWeekStart(kind: .locale(text))
    }
}
