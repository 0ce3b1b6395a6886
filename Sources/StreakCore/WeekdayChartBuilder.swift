/// Completion counts per weekday: one series per habit and optionally a total.
public struct WeekdayChart: Hashable, Sendable {
    /// The first day counted.
    public var from: CivilDate
    /// The last day counted.
    public var to: CivilDate
    /// The weekdays in the locale's order, with their short names.
    public var weekdays: [WeekdayName]
    /// One series per habit (by id), then the total when requested.
    public var series: [WeekdaySeries]
}

/// A weekday and the locale's short name for it.
public struct WeekdayName: Hashable, Sendable {
    /// The weekday (Foundation numbering: 1 = Sunday ... 7 = Saturday).
    public var weekday: Weekday
    /// The locale's short (format-context) symbol, e.g. "Mon" (en_US) or "Mo." (de_DE).
    public var shortName: String
}

/// The counts of one habit, or of all habits.
public struct WeekdaySeries: Hashable, Sendable {
    /// The habit's id; nil for the total.
    public var habitID: Int64?
    /// The habit's name, or "Total".
    public var name: String
    /// Exactly seven counts, in the chart's weekday order, zeros included.
    public var counts: [Int]
}

/// Builds weekday charts.
public enum WeekdayChartBuilder {
    /// Counts completions per weekday over `[from, to]` (default: the first completion through
    /// `asOf`), one series per habit in id order and a total when `includeTotal`, with the weekdays
    /// ordered from the locale's first weekday. A completion counts only when its habit was active
    /// that day, as in `DayRecord`. Cost: linear in the days with completions.
    public static func build(
        _ index: CompletionIndex,
        asOf: CivilDate,
        from: CivilDate? = nil,
        to: CivilDate? = nil,
        locale: LocaleProfile = .english,
        includeTotal: Bool = false
    ) throws(CoreError) -> WeekdayChart {
        let end = to ?? asOf
        let start = from ?? min(index.firstCompletionDate ?? end, end)
        guard start <= end else {
            throw CoreError(.invalidArgument, "the range starts (\(start)) after it ends (\(end))")
        }
        let order = locale.weekdays
        var counts: [Int64: [Int]] = [:]
        for habit in index.habits { counts[habit.id] = [Int](repeating: 0, count: 7) }
        let first = index.daysWithCompletions.partitioningIndex { $0 >= start.dayNumber }
        for day in index.daysWithCompletions[first...] {
            guard day <= end.dayNumber else { break }
            let column = CivilDate(validDayNumber: day).weekday.offset(from: locale.firstWeekday)
            // Only habits active that day, like the day records: a completion left outside a
            // habit's window (e.g. after it was archived from an earlier day) does not count.
            for habitID in index.completedHabitIDs(onDayNumber: day) { counts[habitID]?[column] += 1 }
        }
        var series = index.habits.map { WeekdaySeries(habitID: $0.id, name: $0.name, counts: counts[$0.id] ?? []) }
        if includeTotal {
            let total = series.reduce(into: [Int](repeating: 0, count: 7)) { sum, one in
                for column in 0..<7 { sum[column] += one.counts[column] }
            }
            series.append(WeekdaySeries(habitID: nil, name: "Total", counts: total))
        }
        return WeekdayChart(
            from: start,
            to: end,
            weekdays: order.map { WeekdayName(weekday: $0, shortName: locale.shortName(of: $0)) },
            series: series
        )
    }
}
