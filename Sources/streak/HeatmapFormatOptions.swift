import ArgumentParser
import StreakCLI
import StreakClient
import StreakCore
import StreakWire

/// `streak heatmap`'s output options: `--format text|svg|html`, `--months N`, `--labels`, and
/// the theme and output file. Text fits the terminal (`TerminalWidth`): the most recent weeks.
struct HeatmapFormatOptions: ParsableArguments {
    /// What `--format` names.
    enum Format: String, CaseIterable {
        case text, svg, html
    }

    @Option(help: ArgumentHelp("text, svg or html (a self-contained page).", valueName: "format"))
    var format: String = "text"

    @Option(
        help: ArgumentHelp(
            "Show N months ending with --to (else --as-of, else today) instead of --from.",
            valueName: "N"
        )
    )
    var months: Int?

    @Flag(help: "Ask for each day's accessibility label (JSON: \"accessibility_label\" in every cell).")
    var labels = false

    @OptionGroup var picture: PictureOptions

    /// The format, or a usage error (64) for anything else.
    func parsedFormat(json: Bool) throws(CLIFailure) -> Format {
        guard let parsed = Format(rawValue: format.lowercased()) else {
            throw CLIFailure(.usage, "unknown --format '\(format)'; expected one of text, svg, html")
        }
        if json && parsed != .text {
            throw CLIFailure(.usage, "--json prints JSON; leave it out for --format \(parsed.rawValue)")
        }
        return parsed
    }

    /// Asks for the heatmap: checks the options first, applies `--months` and asks for the
    /// accessibility labels that SVG and HTML put on every cell.
    func heatmap(_ request: WireGetHeatmapRequest, context: CommandContext) async throws -> WireHeatmap {
        let format = try parsedFormat(json: context.json)
        _ = try picture.parsedTheme()
        var request = request
        if let months {
            guard (1...120).contains(months) else {
                throw CLIFailure(.usage, "--months must be 1...120, not \(months)")
            }
            guard request.from == nil else { throw CLIFailure(.usage, "give --from or --months, not both") }
            var last = request.to ?? context.asOf
            if last == nil { last = try await context.client.streak().asOf }
            guard let last else { throw CLIFailure(.server, "the server did not say what today is") }
            request.from = try MonthRange.first(monthsEndingWith: last, count: months)
        }
        request.accessibilityLabels = labels || format != .text
        // Text shows the most recent weeks that fit, with the labels of this answer
        // (`HeatmapRenderer.trimmed`).
        return try await context.client.heatmap(request)
    }

    /// Prints or writes the heatmap in the chosen format.
    func emit(_ heatmap: WireHeatmap, habitIDs: [Int64], context: CommandContext) async throws {
        let format = try parsedFormat(json: context.json)
        let theme = try picture.parsedTheme()
        switch format {
        case _ where context.json:
            try picture.deliver(WireJSON.heatmap(heatmap).serialized(pretty: true) + "\n")
        case .text:
            let style = picture.output == nil ? context.style : .plain
            let text = HeatmapRenderer.render(
                heatmap,
                style: style,
                theme: theme ?? .dark,
                width: TerminalWidth.current()
            )
            try picture.deliver(text)
        case .svg, .html:
            let streak = try await context.client.streak(asOf: context.asOf, habitIDs: habitIDs)
            let (locale, names) = PictureOptions.weekdayNames(settings: try await context.client.settings())
            if format == .svg {
                try picture.deliver(
                    HeatmapSVGRenderer.render(heatmap, streak: streak, theme: theme ?? .light, weekdayNames: names)
                )
            } else {
                let report = HTMLReport(
                    heatmap: heatmap,
                    streak: streak,
                    theme: theme ?? .light,
                    locale: locale,
                    weekdayNames: names
                )
                try picture.deliver(HTMLReportRenderer.render(report))
            }
        }
    }
}

/// Month arithmetic for `--months`.
enum MonthRange {
    /// The 1st of the month `count - 1` months before `last`'s month.
    static func first(monthsEndingWith last: CivilDate, count: Int) throws(CoreError) -> CivilDate {
        let index = last.year * 12 + (last.month - 1) - (count - 1)
        return try CivilDate(year: index / 12, month: index % 12 + 1, day: 1)
    }
}
