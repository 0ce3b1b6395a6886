public import StreakCore
public import StreakWire

/// Draws the streak counter: "42 days" and, below it, the longest streak with its dates.
public enum StreakRenderer {
    /// The counter as two or three lines of text, each ending in a newline. `nothingDueToday`
    /// words the pending line for a day with nothing due (a rest day, a day off the schedule).
    public static func render(
        _ streak: WireStreakSummary,
        style: TerminalStyle,
        nothingDueToday: Bool = false
    ) -> String {
        var first = style.bold(days(streak.current))
        if streak.current > 0, let start = streak.currentStart {
            first += " " + style.dim("(since \(start))")
        }
        var lines = [first]
        if streak.todayPending { lines.append(style.dim(pendingNote(nothingDue: nothingDueToday))) }
        if streak.longest > 0, let start = streak.longestStart, let end = streak.longestEnd {
            lines.append("longest \(days(streak.longest)) (\(start) – \(end))")
        } else {
            lines.append("longest 0 days")
        }
        return lines.map { $0 + "\n" }.joined()
    }

    /// Why today is not in a kept streak yet: nothing done, or nothing due.
    public static func pendingNote(nothingDue: Bool) -> String {
        nothingDue
            ? "nothing is due today; the streak carries on"
            : "today is not done yet; the streak is kept until it ends"
    }

    /// Whether `heatmap` shows nothing due on `day` (a rest day, or no habit on its schedule).
    public static func nothingDue(on day: CivilDate?, in heatmap: WireHeatmap) -> Bool {
        guard let day else { return false }
        for week in heatmap.weeks {
            if let cell = week.cells.first(where: { $0.present && $0.date == day }) { return cell.due == 0 }
        }
        return false
    }

    /// "1 day", "42 days".
    public static func days(_ count: Int32) -> String {
        count == 1 ? "1 day" : "\(count) days"
    }
}
