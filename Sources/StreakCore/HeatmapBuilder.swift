/// What a heatmap shows and how.
public struct HeatmapOptions: Hashable, Sendable {
    /// "Today": days after it are absent.
    public var asOf: CivilDate
    /// The first day; nil for the 1st of the month eleven months before `asOf`'s month.
    public var from: CivilDate?
    /// The last day; nil for `asOf`.
    public var to: CivilDate?
    /// The first weekday of each column (default Monday).
    public var weekStart: Weekday
    /// The locale of month labels and accessibility labels.
    public var locale: LocaleProfile
    /// Whether a day contributes (not shown in cells, kept for symmetry with streaks).
    public var threshold: StreakThreshold
    /// Whether cells carry accessibility labels.
    public var accessibilityLabels: Bool

    /// The longest range a heatmap may span, in days (20 years).
    public static let maximumDays = 20 * 366

    /// Creates options; the defaults give the twelve-month heatmap ending at `asOf`.
    public init(
        asOf: CivilDate,
        from: CivilDate? = nil,
        to: CivilDate? = nil,
        weekStart: Weekday = .monday,
        locale: LocaleProfile = .english,
        threshold: StreakThreshold = .atLeastOneHabit,
        accessibilityLabels: Bool = false
    ) {
        self.asOf = asOf
        self.from = from
        self.to = to
        self.weekStart = weekStart
        self.locale = locale
        self.threshold = threshold
        self.accessibilityLabels = accessibilityLabels
    }

    /// The range after defaults: `[from, to]`.
    /// - Throws: `CoreError(.invalidArgument)` when `from > to` or the range is over 20 years.
    public func resolvedRange() throws(CoreError) -> ClosedRange<CivilDate> {
        let to = self.to ?? asOf
        let from = self.from ?? HeatmapOptions.defaultStart(asOf: asOf)
        guard from <= to else { throw CoreError(.invalidArgument, "the range starts (\(from)) after it ends (\(to))") }
        guard from.days(to: to) < Self.maximumDays else {
            throw CoreError(
                .invalidArgument,
                "a heatmap spans at most \(Self.maximumDays) days, about 20 years"
                    + " (\(from) to \(to) is \(from.days(to: to) + 1) days)"
            )
        }
        return from...to
    }

    /// The 1st of the month eleven months before `asOf`'s month.
    public static func defaultStart(asOf: CivilDate) -> CivilDate {
        let months = asOf.year * 12 + (asOf.month - 1) - 11
        let year = months / 12
        guard year >= 1 else { return .min }
        return (try? CivilDate(year: year, month: months % 12 + 1, day: 1)) ?? .min
    }
}

/// Builds heatmap weeks from a completion index.
public enum HeatmapBuilder {
    /// The heatmap of `index` under `options`: one column per week from the week holding
    /// `from` to the week holding `to`, seven cells each, absent outside the range and after `asOf`.
    /// Cost: linear in the days of the range, the completions in it and the habits (one `DaySweep`).
    /// - Throws: `CoreError(.invalidArgument)` for a bad range.
    public static func build(_ index: CompletionIndex, options: HeatmapOptions) throws(CoreError) -> Heatmap {
        var steps = 0
        return try build(index, options: options, steps: &steps)
    }

    /// `build(_:options:)`, adding the sweep's elementary steps to `steps` (for the cost test).
    static func build(
        _ index: CompletionIndex,
        options: HeatmapOptions,
        steps: inout Int
    ) throws(CoreError) -> Heatmap {
        let range = try options.resolvedRange()
        let weeks: [HeatmapWeek]
        if index.hasSchedulesSkipsOrRest {
            var sweep = DueSweep(index)
            weeks = columns(range, options: options, sweep: &sweep)
            steps += sweep.steps
        } else {
            var sweep = DaySweep(index)
            weeks = columns(range, options: options, sweep: &sweep)
            steps += sweep.steps
        }
        return Heatmap(
            from: range.lowerBound,
            to: range.upperBound,
            weekStart: options.weekStart,
            weeks: weeks,
            monthLabels: MonthLabelBuilder.labels(weekStarts: weeks.map(\.start), locale: options.locale),
            legend: LegendEntry.standard
        )
    }

    /// The week columns of `range`, each day's counts taken from `sweep`.
    private static func columns(
        _ range: ClosedRange<CivilDate>,
        options: HeatmapOptions,
        sweep: inout some DayCounting
    ) -> [HeatmapWeek] {
        let from = range.lowerBound.dayNumber
        let to = range.upperBound.dayNumber
        let lastPresent = min(to, options.asOf.dayNumber)
        let firstColumn = from - range.lowerBound.weekday.offset(from: options.weekStart)
        var weeks: [HeatmapWeek] = []
        weeks.reserveCapacity((to - firstColumn) / 7 + 1)
        var columnStart = firstColumn
        while columnStart <= to {
            var cells: [HeatmapCell?] = []
            cells.reserveCapacity(7)
            for day in columnStart..<(columnStart + 7) {
                guard day >= from && day <= lastPresent else {
                    cells.append(nil)
                    continue
                }
                cells.append(cell(CivilDate(validDayNumber: day), sweep.dayCounts(onDayNumber: day), options: options))
            }
            weeks.append(HeatmapWeek(start: CivilDate(validDayNumber: max(columnStart, from)), cells: cells))
            columnStart += 7
        }
        return weeks
    }

    private static func cell(_ date: CivilDate, _ counts: DayCounts, options: HeatmapOptions) -> HeatmapCell {
        HeatmapCell(
            date: date,
            completed: counts.completed,
            active: counts.active,
            due: counts.due,
            level: IntensityLevel(completed: counts.completed, active: counts.due),
            percentage: Percentage.shown(completed: counts.completed, active: counts.due),
            isRestDay: counts.isRestDay,
            accessibilityLabel: options.accessibilityLabels
                ? AccessibilityLabel.text(
                    date: date,
                    completed: counts.completed,
                    due: counts.due,
                    active: counts.active
                )
                : nil
        )
    }
}
