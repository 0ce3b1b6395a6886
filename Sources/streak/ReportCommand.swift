import ArgumentParser
import StreakCLI
import StreakClient
import StreakCore
import StreakWire

/// `streak report [-o FILE] [--theme T]`: one self-contained HTML page with the heatmap, the
/// streak, this month's page and the weekday chart.
struct ReportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "report",
        abstract: "Write an HTML page: heatmap, streak, this month and the weekday chart (no external files).",
        discussion: """
            Without -o the page goes to standard output.

            Examples:
              streak report -o report.html
              streak report --theme dark -o dark.html
              streak report --habit Meditate -o meditate.html   # one habit's page
            """
    )
    @OptionGroup var global: GlobalOptions
    @OptionGroup var picture: PictureOptions
    @OptionGroup var filter: HabitFilter

    func run() async throws {
        try await global.run { context in
            if context.json { throw CLIFailure(.usage, "report writes HTML; leave out --json") }
            let theme = try picture.parsedTheme() ?? .light
            let ids = try await filter.ids(client: context.client)
            var request = WireGetHeatmapRequest()
            request.habitIds = ids
            request.asOf = context.asOf
            request.accessibilityLabels = true
            let heatmap = try await context.client.heatmap(request)
            let streak = try await context.client.streak(asOf: context.asOf, habitIDs: ids)
            var pageRequest = WireGetMonthPageRequest()
            pageRequest.habitIds = ids
            pageRequest.asOf = context.asOf
            let page = try await context.client.monthPage(pageRequest)
            var chartRequest = WireGetWeekdayChartRequest()
            chartRequest.habitIds = ids
            chartRequest.from = heatmap.from
            chartRequest.to = heatmap.to
            chartRequest.asOf = context.asOf
            chartRequest.includeTotal = true
            let chart = try await context.client.weekdayChart(chartRequest)
            let (locale, names) = PictureOptions.weekdayNames(settings: try await context.client.settings())
            let report = HTMLReport(
                heatmap: heatmap,
                streak: streak,
                monthPage: page,
                weekdayChart: chart,
                theme: theme,
                locale: locale,
                weekdayNames: names
            )
            try picture.deliver(HTMLReportRenderer.render(report))
        }
    }
}
