public import StreakCore
public import StreakWire

/// Draws habits as a table: id, name, created and archived days, and, when any habit has one, each
/// habit's schedule on the day given (`mon,wed,fri since 2024-03-04`, and its next change).
public enum HabitListRenderer {
    /// The table, each line ending in a newline; a hint when there are no habits. `today` picks
    /// the schedule entry shown. With a `width`, names too long for the columns up to ARCHIVED
    /// to fit are cut with `…` (to no fewer than 8 columns).
    public static func render(
        _ habits: [WireHabit],
        today: CivilDate,
        style: TerminalStyle,
        width: Int? = nil
    ) -> String {
        guard !habits.isEmpty else {
            return "no habits yet; add one with: streak habit add NAME\n"
        }
        let idWidth = max(2, habits.map { String($0.id).count }.max() ?? 2)
        // Terminal columns, not bytes or characters: emoji and CJK names take two per character.
        var nameWidth = max(4, habits.map { DisplayWidth.of($0.name) }.max() ?? 4)
        // ID "  " NAME "  " CREATED "  " ARCHIVED
        if let width { nameWidth = min(nameWidth, max(8, width - idWidth - 2 - 2 - 10 - 2 - 10)) }
        let showsSchedules = habits.contains { !$0.schedule.isEmpty }
        func row(_ id: String, _ name: String, _ created: String, _ archived: String, _ schedule: String) -> String {
            var line =
                String(repeating: " ", count: idWidth - id.count) + id + "  "
                + DisplayWidth.padRight(name, to: nameWidth) + "  "
                + created.padding(toLength: 10, withPad: " ", startingAt: 0) + "  " + archived
            if showsSchedules {
                line = DisplayWidth.padRight(line, to: idWidth + nameWidth + 26) + "  " + schedule
            }
            return line.trimmingTrailingSpaces()
        }
        var lines = [style.bold(row("ID", "NAME", "CREATED", "ARCHIVED", "SCHEDULE"))]
        for habit in habits {
            lines.append(
                row(
                    String(habit.id),
                    DisplayWidth.truncated(habit.name, to: nameWidth),
                    habit.createdOn.map(String.init(describing:)) ?? "",
                    habit.archivedOn.map(String.init(describing:)) ?? "",
                    schedule(habit, on: today)
                )
            )
        }
        return lines.map { $0 + "\n" }.joined()
    }

    /// The schedule in effect on `today`: `daily` or `mon,wed,fri`, with `since DATE` when a
    /// change set it; then the next change when one is dated later (`, then sun,sat from DATE`).
    /// Before its first entry a habit is expected every day.
    public static func schedule(_ habit: WireHabit, on today: CivilDate) -> String {
        let entries = habit.schedule
        let current = entries.lastIndex { ($0.effectiveFrom ?? .min) <= today }
        var text = "daily"
        if let current {
            text = days(entries[current].weekdays) + (entries[current].effectiveFrom.map { " since \($0)" } ?? "")
        }
        let next = current.map { $0 + 1 } ?? 0
        if next < entries.count, let from = entries[next].effectiveFrom {
            text += ", then \(days(entries[next].weekdays)) from \(from)"
        }
        return text
    }

    /// `daily` for all seven weekdays, else their short names: `mon,wed,fri`.
    public static func days(_ weekdays: [Weekday]) -> String {
        weekdays.count == 7 ? "daily" : WeekdayNames.shortList(weekdays)
    }
}
