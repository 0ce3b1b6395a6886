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
    /// Cost: linear in the days of the range, the completions in it and the habits (one sweep:
    /// `DaySweep`, or `DueSweep` with schedules, skips or rest periods).
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
        let weeks = columns(index, range, options: options, steps: &steps)
        return Heatmap(
            from: range.lowerBound,
            to: range.upperBound,
            weekStart: options.weekStart,
            weeks: weeks,
            monthLabels: MonthLabelBuilder.labels(weekStarts: weeks.map(\.start), locale: options.locale),
            legend: LegendEntry.standard
        )
    }

    /// The column `weekIndex` (0 for the first) of the heatmap of `index` under `options`, as
    /// `build` makes it: what a cached heatmap needs again after its days' records changed.
    /// Cost: the days and completions of that week, plus the habits' creation and archive days
    /// and schedule entries before it.
    /// - Throws: `CoreError(.invalidArgument)` for a bad range or a column the heatmap does not have.
    public static func week(
        _ weekIndex: Int,
        of index: CompletionIndex,
        options: HeatmapOptions
    ) throws(CoreError) -> HeatmapWeek {
        let range = try options.resolvedRange()
        var steps = 0
        let weeks = columns(index, range, options: options, only: weekIndex, steps: &steps)
        guard let week = weeks.first else {
            throw CoreError(.invalidArgument, "the heatmap has no column \(weekIndex)")
        }
        return week
    }

    /// The index of the column that shows `date` in the heatmap of `options`, or nil when the
    /// heatmap has no cell for it (outside the range, or after `asOf`).
    /// - Throws: `CoreError(.invalidArgument)` for a bad range.
    public static func weekIndex(of date: CivilDate, options: HeatmapOptions) throws(CoreError) -> Int? {
        let range = try options.resolvedRange()
        let day = date.dayNumber
        guard day >= range.lowerBound.dayNumber, day <= min(range.upperBound, options.asOf).dayNumber else {
            return nil
        }
        return (day - firstColumnStart(range, options: options)) / 7
    }

    /// The first day of the first column: the day on or before `from` that is `weekStart`.
    private static func firstColumnStart(_ range: ClosedRange<CivilDate>, options: HeatmapOptions) -> Int {
        range.lowerBound.dayNumber - range.lowerBound.weekday.offset(from: options.weekStart)
    }

    /// The week columns of `range` (only column `only` when given), each day's counts taken from
    /// the sweep that suits `index`.
    private static func columns(
        _ index: CompletionIndex,
        _ range: ClosedRange<CivilDate>,
        options: HeatmapOptions,
        only: Int? = nil,
        steps: inout Int
    ) -> [HeatmapWeek] {
        if index.hasSchedulesSkipsOrRest {
            var sweep = DueSweep(index)
            defer { steps += sweep.steps }
            return columns(range, options: options, only: only, sweep: &sweep)
        }
        var sweep = DaySweep(index)
        defer { steps += sweep.steps }
        return columns(range, options: options, only: only, sweep: &sweep)
    }

    /// The week columns of `range` (only column `only` when given), each day's counts taken from `sweep`.
    private static func columns(
        _ range: ClosedRange<CivilDate>,
        options: HeatmapOptions,
        only: Int?,
        sweep: inout some DayCounting
    ) -> [HeatmapWeek] {
        let from = range.lowerBound.dayNumber
        let to = range.upperBound.dayNumber
        let lastPresent = min(to, options.asOf.dayNumber)
        let firstColumn = firstColumnStart(range, options: options)
        var columnStart = firstColumn
        var lastColumn = to
        if let only {
            columnStart = firstColumn + 7 * max(only, 0)
            lastColumn = only >= 0 ? min(to, columnStart) : columnStart - 1
        }
        var weeks: [HeatmapWeek] = []
        weeks.reserveCapacity(max(0, (lastColumn - columnStart) / 7 + 1))
        while columnStart <= lastColumn {
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
