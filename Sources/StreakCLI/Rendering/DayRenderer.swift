public import StreakWire

/// Draws a day (the popover): its summary line and the habits completed on it.
public enum DayRenderer {
    /// The day as text, each line ending in a newline.
    public static func render(_ day: WireDayDetail, style: TerminalStyle) -> String {
        let date = day.date.map(String.init(describing:)) ?? "?"
        var lines = [style.bold(date) + "  " + summary(day)]
        lines.append(
            "level \(day.level), "
                + (day.contributing ? "counts towards the streak" : "does not count towards the streak")
        )
        for habit in day.completedHabits {
            lines.append("  ✓ \(habit.name) (#\(habit.id))")
        }
        return lines.map { $0 + "\n" }.joined()
    }

    /// "4 of 5 habits (80%)".
    static func summary(_ day: WireDayDetail) -> String {
        "\(day.completed) of \(day.active) \(day.active == 1 ? "habit" : "habits") (\(day.percent)%)"
    }
}
