import StreakCore
public import StreakWire

/// The words that go with a heatmap picture, for screen readers and headings: its range and
/// the streak, and each cell's label.
public enum HeatmapSummary {
    /// `Habit heatmap, 2024-07-01 to 2025-06-15`.
    public static func title(_ heatmap: WireHeatmap) -> String {
        guard let from = heatmap.from, let to = heatmap.to else { return "Habit heatmap" }
        return "Habit heatmap, \(from) to \(to)"
    }

    /// `Current streak: 47 days, since 2025-04-30.` and `Longest streak: ...`, or an empty
    /// string without a streak.
    public static func streak(_ streak: WireStreakSummary?, nothingDueToday: Bool = false) -> String {
        guard let streak else { return "" }
        var current = "Current streak: \(StreakRenderer.days(streak.current))"
        if streak.current > 0, let start = streak.currentStart { current += ", since \(start)" }
        if streak.todayPending { current += nothingDueToday ? " (nothing is due today)" : " (today is not done yet)" }
        var longest = "Longest streak: \(StreakRenderer.days(streak.longest))"
        if streak.longest > 0, let start = streak.longestStart, let end = streak.longestEnd {
            longest += ", \(start) to \(end)"
        }
        return current + ". " + longest + "."
    }

    /// The picture described: the range, the streak and how to read the squares.
    public static func description(
        _ heatmap: WireHeatmap,
        streak summary: WireStreakSummary?,
        palette: HeatmapPalette
    ) -> String {
        var parts: [String] = []
        if let from = heatmap.from, let to = heatmap.to {
            parts.append("Habits completed each day from \(from) to \(to).")
        }
        let streakText = streak(summary, nothingDueToday: StreakRenderer.nothingDue(on: summary?.asOf, in: heatmap))
        if !streakText.isEmpty { parts.append(streakText) }
        let direction = palette.isLight ? "darker" : "lighter"
        parts.append(
            "One square per day, one column per week; \(direction) squares mean more of the day's habits done, "
                + "the fullest days carry a dot and rest days a dash."
        )
        return parts.joined(separator: " ")
    }

    /// The cell's accessibility label as the server wrote it, else the same text made here
    /// (English month names) from its counts; empty for an absent cell.
    public static func label(_ cell: WireHeatmapCell) -> String {
        guard cell.present else { return "" }
        if !cell.accessibilityLabel.isEmpty { return cell.accessibilityLabel }
        guard let date = cell.date else { return "" }
        return AccessibilityLabel.text(
            date: date,
            completed: Int(cell.completed),
            due: Int(cell.due),
            active: Int(cell.active)
        )
    }
}
