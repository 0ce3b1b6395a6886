public import StreakWire

/// Draws a day (the popover): its summary line and the habits completed on it.
public enum DayRenderer {
    /// The day as text, each line ending in a newline.
    public static func render(_ day: WireDayDetail, style: TerminalStyle) -> String {
        let date = day.date.map(String.init(describing:)) ?? "?"
        var lines = [style.bold(date) + "  " + summary(day)]
        lines.append(
            day.rest
                ? "a rest day: neither counts nor breaks the streak"
                : "level \(day.level), "
                    + (day.contributing ? "counts towards the streak" : "does not count towards the streak")
        )
        for habit in day.completedHabits {
            lines.append("  ✓ \(habit.name) (#\(habit.id))")
        }
        for habit in day.skippedHabits {
            lines.append("  - \(habit.name) (#\(habit.id)) skipped")
        }
        for habit in day.openHabits {
            lines.append("  ○ \(habit.name) (#\(habit.id)) open")
        }
        return lines.map { $0 + "\n" }.joined()
    }

    /// "4 of 5 habits (80%)": done of due; "rest day" when every habit was excused.
    static func summary(_ day: WireDayDetail) -> String {
        summary(completed: day.completed, due: day.due, active: day.active, percent: day.percent, rest: day.rest)
    }

    /// "4 of 5 habits (80%)": done of due; "rest day" when every habit was excused. The one
    /// wording of a day's count, for `day`, `today` and the line `done`, `skip` and `watch` print.
    static func summary(completed: Int32, due: Int32, active: Int32, percent: Int32, rest: Bool) -> String {
        if rest { return "rest day" }
        // A server older than `due` sends 0: every active habit was due.
        let due = due == 0 ? active : due
        return "\(completed) of \(due) \(due == 1 ? "habit" : "habits") (\(percent)%)"
    }
}
