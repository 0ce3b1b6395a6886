public import StreakWire

/// Draws habits as a table: id, name, created and archived days, and each habit's latest schedule
/// when any habit has one (`mon,wed,fri since 2024-03-04`).
public enum HabitListRenderer {
    /// The table, each line ending in a newline; a hint when there are no habits.
    public static func render(_ habits: [WireHabit], style: TerminalStyle) -> String {
        guard !habits.isEmpty else {
            return "no habits yet; add one with: streak habit add NAME\n"
        }
        let idWidth = max(2, habits.map { String($0.id).count }.max() ?? 2)
        // Terminal columns, not bytes or characters: emoji and CJK names take two per character.
        let nameWidth = max(4, habits.map { DisplayWidth.of($0.name) }.max() ?? 4)
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
                    habit.name,
                    habit.createdOn.map(String.init(describing:)) ?? "",
                    habit.archivedOn.map(String.init(describing:)) ?? "",
                    schedule(habit)
                )
            )
        }
        return lines.map { $0 + "\n" }.joined()
    }

    /// The latest schedule entry: `daily` or `mon,wed,fri`, with `since DATE`.
    public static func schedule(_ habit: WireHabit) -> String {
        guard let latest = habit.schedule.last else { return "daily" }
        let days = latest.weekdays.count == 7 ? "daily" : WeekdayNames.shortList(latest.weekdays)
        return days + (latest.effectiveFrom.map { " since \($0)" } ?? "")
    }
}
