public import StreakWire

/// Draws the streak counter: "42 days" and, below it, the longest streak with its dates.
public enum StreakRenderer {
    /// The counter as two or three lines of text, each ending in a newline.
    public static func render(_ streak: WireStreakSummary, style: TerminalStyle) -> String {
        var first = style.bold(days(streak.current))
        if streak.current > 0, let start = streak.currentStart {
            first += " " + style.dim("(since \(start))")
        }
        var lines = [first]
        if streak.todayPending {
            lines.append(style.dim("today is not done yet; the streak is kept until it ends"))
        }
        if streak.longest > 0, let start = streak.longestStart, let end = streak.longestEnd {
            lines.append("longest \(days(streak.longest)) (\(start) – \(end))")
        } else {
            lines.append("longest 0 days")
        }
        return lines.map { $0 + "\n" }.joined()
    }

    /// "1 day", "42 days".
    public static func days(_ count: Int32) -> String {
        count == 1 ? "1 day" : "\(count) days"
    }
}
