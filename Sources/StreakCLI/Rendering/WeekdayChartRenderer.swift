public import StreakWire

/// Draws the weekday chart: for each series (the total first), one horizontal bar per
/// weekday in the series' (the locale's) order, scaled to the largest count of the chart.
public enum WeekdayChartRenderer {
    /// The chart as text, each line ending in a newline.
    /// - Parameters:
    ///   - chart: the chart.
    ///   - width: the length of the longest bar, in characters.
    ///   - style: colour or plain.
    public static func render(_ chart: WireWeekdayChart, width: Int = 30, style: TerminalStyle) -> String {
        let series = chart.series.filter(\.total) + chart.series.filter { !$0.total }
        let maximum = series.flatMap(\.counts).map(\.count).max() ?? 0
        let nameWidth = series.flatMap(\.counts).map { DisplayWidth.of($0.shortName) }.max() ?? 3
        var lines: [String] = []
        if let from = chart.from, let to = chart.to {
            lines.append(style.dim("\(from) – \(to)"))
        }
        for entry in series {
            if !lines.isEmpty { lines.append("") }
            lines.append(style.bold(entry.total ? "Total" : entry.name))
            for count in entry.counts {
                let length = maximum == 0 ? 0 : max(count.count > 0 ? 1 : 0, Int(count.count) * width / Int(maximum))
                let bar = String(repeating: "█", count: length)
                let name = DisplayWidth.padRight(count.shortName, to: nameWidth)
                let coloured = bar.isEmpty ? "" : style.foreground(bar, HeatmapRenderer.palette[3]) + " "
                lines.append("  \(name) \(coloured)\(count.count)")
            }
        }
        return lines.map { $0 + "\n" }.joined()
    }
}
