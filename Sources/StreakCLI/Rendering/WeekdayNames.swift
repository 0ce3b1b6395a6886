public import StreakCore

/// English lower-case weekday names, as the CLI reads and writes them (`monday`).
public enum WeekdayNames {
    /// `monday` for `.monday`.
    public static func name(_ weekday: Weekday) -> String {
        ["sunday", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday"][weekday.rawValue - 1]
    }

    /// The weekday a name or its first three letters stand for, any case; nil when none.
    public static func weekday(named text: String) -> Weekday? {
        let lowered = text.lowercased()
        guard lowered.count >= 2 else { return nil }
        return Weekday.allCases.first { name($0) == lowered || (lowered.count >= 3 && name($0).hasPrefix(lowered)) }
    }
}
