import Foundation
public import StreakCore

/// English lower-case weekday names, as the CLI reads and writes them (`monday`).
public enum WeekdayNames {
    /// `monday` for `.monday`.
    public static func name(_ weekday: Weekday) -> String {
        ["sunday", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday"][weekday.rawValue - 1]
    }

    /// `mon,wed,fri`: three-letter names, Sunday first.
    public static func shortList(_ weekdays: [Weekday]) -> String {
        weekdays.sorted { $0.rawValue < $1.rawValue }.map { String(name($0).prefix(3)) }.joined(separator: ",")
    }

    /// The weekdays of a list like `mon,wed,fri`, or `daily`, `weekdays`, `weekends`.
    /// - Returns: nil when the list is empty or names something that is not a weekday.
    public static func weekdays(list text: String) -> [Weekday]? {
        switch text.lowercased() {
        case "daily", "every-day", "everyday": return Weekday.allCases
        case "weekdays": return [.monday, .tuesday, .wednesday, .thursday, .friday]
        case "weekends": return [.saturday, .sunday]
        default: break
        }
        let parts = text.split(separator: ",", omittingEmptySubsequences: false)
            .map { $0.trimmingCharacters(in: .whitespaces) }
        guard !parts.isEmpty else { return nil }
        var result: [Weekday] = []
        for part in parts {
            guard let weekday = weekday(named: part) else { return nil }
            if !result.contains(weekday) { result.append(weekday) }
        }
        return result.sorted { $0.rawValue < $1.rawValue }
    }

    /// The weekday a name or its first three letters stand for, any case; nil when none.
    public static func weekday(named text: String) -> Weekday? {
        let lowered = text.lowercased()
        guard lowered.count >= 2 else { return nil }
        return Weekday.allCases.first { name($0) == lowered || (lowered.count >= 3 && name($0).hasPrefix(lowered)) }
    }
}
