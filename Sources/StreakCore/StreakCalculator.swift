/// The streak counter: the current run with its start, the longest run with its dates.
public struct StreakSummary: Hashable, Sendable {
    /// The day the summary is computed for.
    public var asOf: CivilDate
    /// Days in the current streak; 0 when none.
    public var current: Int
    /// The current streak's first day; nil when `current` is 0.
    public var currentStart: CivilDate?
    /// Days in the longest streak on or before `asOf`.
    public var longest: Int
    /// The longest streak's first day; nil when `longest` is 0.
    public var longestStart: CivilDate?
    /// The longest streak's last day; nil when `longest` is 0.
    public var longestEnd: CivilDate?
    /// Whether `asOf` does not contribute (yet, or it is a rest day) while the streak ending
    /// before it is kept.
    public var todayPending: Bool

    /// Creates a summary.
    public init(
        asOf: CivilDate,
        current: Int,
        currentStart: CivilDate?,
        longest: Int,
        longestStart: CivilDate?,
        longestEnd: CivilDate?,
        todayPending: Bool
    ) {
        self.asOf = asOf
        self.current = current
        self.currentStart = currentStart
        self.longest = longest
        self.longestStart = longestStart
        self.longestEnd = longestEnd
        self.todayPending = todayPending
    }
}

/// Computes streaks from contributing days.
public enum StreakCalculator {
    /// The streak summary as of `asOf`.
    ///
    /// A run is a maximal sequence of contributing days whose gaps are rest days only; its
    /// length counts the contributing days. Current: with c the latest contributing day on or
    /// before `asOf`, c's run when every day strictly between c and `asOf` is a rest day, else 0
    /// (`asOf` itself may be pending or resting). Longest: the longest run on or before `asOf`;
    /// on a tie, the most recent. Without schedules, skips and rest periods there are no rest
    /// days, and the cost is linear in the days that have completions, never in the calendar
    /// days between them; with them, linear in the days from the first completion on (see
    /// `summaryBridgingRestDays`).
    public static func summary(
        _ index: CompletionIndex,
        threshold: StreakThreshold = .atLeastOneHabit,
        asOf: CivilDate
    ) -> StreakSummary {
        guard !index.hasSchedulesSkipsOrRest else {
            var steps = 0
            return summaryBridgingRestDays(index, threshold: threshold, asOf: asOf, steps: &steps)
        }
        let last = asOf.dayNumber
        var runStart = 0
        var runEnd = Int.min
        var longest = 0
        var longestStart = 0
        var longestEnd = 0
        for (slot, day) in index.daysWithCompletions.enumerated() {
            guard day <= last else { break }
            guard index.contributes(slot: slot, threshold: threshold) else { continue }
            if day == runEnd + 1 {
                runEnd = day
            } else {
                runStart = day
                runEnd = day
            }
            let length = runEnd - runStart + 1
            if length >= longest {
                longest = length
                longestStart = runStart
                longestEnd = runEnd
            }
        }
        var current = 0
        var pending = false
        if runEnd == last {
            current = runEnd - runStart + 1
        } else if runEnd == last - 1 {
            current = runEnd - runStart + 1
            pending = true
        }
        return StreakSummary(
            asOf: asOf,
            current: current,
            currentStart: current > 0 ? CivilDate(validDayNumber: runStart) : nil,
            longest: longest,
            longestStart: longest > 0 ? CivilDate(validDayNumber: longestStart) : nil,
            longestEnd: longest > 0 ? CivilDate(validDayNumber: longestEnd) : nil,
            todayPending: pending
        )
    }
}

extension CivilDate {
    /// A date from a day number known to be in range (it came from a valid date).
    init(validDayNumber: Int) {
        self = (try? CivilDate(dayNumber: validDayNumber)) ?? (validDayNumber < 0 ? .min : .max)
    }
}
