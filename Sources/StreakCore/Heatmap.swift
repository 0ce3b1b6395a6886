/// A GitHub-style heatmap: one column per week, labels above, a legend.
public struct Heatmap: Hashable, Sendable {
    /// The first day of the range.
    public var from: CivilDate
    /// The last day of the range.
    public var to: CivilDate
    /// The weekday of each column's first cell.
    public var weekStart: Weekday
    /// The columns, oldest first.
    public var weeks: [HeatmapWeek]
    /// Month labels above the columns.
    public var monthLabels: [MonthLabel]
    /// The four levels and their percentages.
    public var legend: [LegendEntry]
}

/// One column of a heatmap.
public struct HeatmapWeek: Hashable, Sendable {
    /// The first in-range day of the column (`from` for a partial first column).
    public var start: CivilDate
    /// Exactly seven cells in week order; nil where the day is outside the range or after `as_of`.
    public var cells: [HeatmapCell?]
}

/// One present day of a heatmap.
public struct HeatmapCell: Hashable, Sendable {
    /// The day.
    public var date: CivilDate
    /// Habits completed (of those active; never more than `due`).
    public var completed: Int
    /// Habits active.
    public var active: Int
    /// Habits due: done, or scheduled, not skipped and not resting (`active` without schedules,
    /// skips or rest periods).
    public var due: Int
    /// The intensity, of `due`.
    public var level: IntensityLevel
    /// The percentage shown to people, of `due`; 0 on a rest day, which shows none.
    public var percentage: Int
    /// Whether every active habit was excused (`active > 0`, `due == 0`).
    public var isRestDay: Bool
    /// "March 5: 80% completed, 4 of 5 habits" or "March 5: rest day", when requested.
    public var accessibilityLabel: String?
}

/// One step of the legend.
public struct LegendEntry: Hashable, Sendable {
    /// The level.
    public var level: IntensityLevel
    /// The lowest percentage shown at this level.
    public var minPercent: Int
    /// The highest percentage shown at this level.
    public var maxPercent: Int
    /// The range as text, e.g. "1-49%".
    public var description: String

    /// The bands of docs/RULES.md (Intensity levels): 0% empty, 1-49% light, 50-99% medium, 100% full.
    public static let standard: [LegendEntry] = [
        LegendEntry(level: .none, minPercent: 0, maxPercent: 0, description: "0%"),
        LegendEntry(level: .light, minPercent: 1, maxPercent: 49, description: "1-49%"),
        LegendEntry(level: .medium, minPercent: 50, maxPercent: 99, description: "50-99%"),
        LegendEntry(level: .full, minPercent: 100, maxPercent: 100, description: "100%"),
    ]
}

/// The accessibility text of a day, e.g. `March 5: 80% completed, 4 of 5 habits` (en_US).
public enum AccessibilityLabel {
    /// The label for a day's counts: `March 5: rest day` when `active > 0` and `due == 0`, else
    /// the label of `completed` of `due`.
    ///
    /// The label is English throughout, month name included, whatever the user's locale: a
    /// label that put a localized month into an English sentence ("octobre 5: 80% completed")
    /// would read in two languages at once. The record's counts are there for a client that
    /// words the label in its own language.
    public static func text(date: CivilDate, completed: Int, due: Int, active: Int) -> String {
        guard active == 0 || due > 0 else { return "\(monthName(date)) \(date.day): rest day" }
        return text(date: date, completed: completed, active: due)
    }

    /// The label for a day's counts; `active` is what the percentage is measured against (the due
    /// count where habits can be excused).
    public static func text(date: CivilDate, completed: Int, active: Int) -> String {
        let percent = Percentage.shown(completed: completed, active: active)
        let noun = active == 1 ? "habit" : "habits"
        return "\(monthName(date)) \(date.day): \(percent)% completed, \(completed) of \(active) \(noun)"
    }

    static func monthName(_ date: CivilDate) -> String {
        LocaleProfile.english.monthSymbols[date.month - 1]
    }
}
