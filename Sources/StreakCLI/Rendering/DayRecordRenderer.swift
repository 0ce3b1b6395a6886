public import StreakWire

/// Draws the answer to a completion change or a watch event: the day and the streak, one line.
public enum DayRecordRenderer {
    /// `2024-03-05  ▒ 4 of 5 habits (80%)  streak 12 days` (done of due, as `day` counts), or
    /// `2024-03-05  - rest day  streak 12 days`, ending in a newline.
    public static func render(
        day: WireDayRecord?,
        streak: WireStreakSummary?,
        changed: Bool? = nil,
        style: TerminalStyle
    ) -> String {
        var parts: [String] = []
        if let day {
            let date = day.date.map(String.init(describing:)) ?? "?"
            let cell =
                day.rest
                ? HeatmapRenderer.restCell(style: style) : HeatmapRenderer.cell(level: Int(day.level), style: style)
            let summary = DayRenderer.summary(
                completed: day.completed,
                due: day.due,
                active: day.active,
                percent: day.percent,
                rest: day.rest
            )
            parts.append("\(date)  \(cell) \(summary)")
        }
        if let streak {
            parts.append("streak " + style.bold(StreakRenderer.days(streak.current)))
        }
        if changed == false {
            parts.append(style.dim("(unchanged)"))
        }
        return parts.joined(separator: "  ") + "\n"
    }
}
