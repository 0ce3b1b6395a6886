public import StreakWire

/// Draws habits as a table: id, name, created and archived days.
public enum HabitListRenderer {
    /// The table, each line ending in a newline; a hint when there are no habits.
    public static func render(_ habits: [WireHabit], style: TerminalStyle) -> String {
        guard !habits.isEmpty else {
            return "no habits yet; add one with: streak habit add NAME\n"
        }
        let idWidth = max(2, habits.map { String($0.id).count }.max() ?? 2)
        let nameWidth = max(4, habits.map(\.name.count).max() ?? 4)
        func row(_ id: String, _ name: String, _ created: String, _ archived: String) -> String {
            let line =
                String(repeating: " ", count: idWidth - id.count) + id + "  "
                + name.padding(toLength: nameWidth, withPad: " ", startingAt: 0) + "  "
                + created.padding(toLength: 10, withPad: " ", startingAt: 0) + "  " + archived
            return line.trimmingTrailingSpaces()
        }
        var lines = [style.bold(row("ID", "NAME", "CREATED", "ARCHIVED"))]
        for habit in habits {
            lines.append(
                row(
                    String(habit.id),
                    habit.name,
                    habit.createdOn.map(String.init(describing:)) ?? "",
                    habit.archivedOn.map(String.init(describing:)) ?? ""
                )
            )
        }
        return lines.map { $0 + "\n" }.joined()
    }
}
