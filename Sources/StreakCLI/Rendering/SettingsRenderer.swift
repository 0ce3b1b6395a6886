public import StreakWire

/// Draws the user's settings, one `name: value` per line.
public enum SettingsRenderer {
    /// The settings as text, each line ending in a newline.
    public static func render(_ settings: WireSettings, style: TerminalStyle) -> String {
        let threshold = settings.minPercent == 0 ? "none (at least one habit)" : "\(settings.minPercent)%"
        let lines = [
            "time zone:   \(settings.timeZone)",
            "locale:      \(settings.locale)",
            "week start:  \(settings.weekStart.map(WeekdayNames.name) ?? "monday")",
            "min percent: \(threshold)",
            "day start:   \(WireJSON.clock(minutes: Int(settings.dayStartMinutes)))",
        ]
        return lines.map { $0 + "\n" }.joined()
    }
}
