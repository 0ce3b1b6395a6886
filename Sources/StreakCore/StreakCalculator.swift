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
    /// `summaryBridgingRestDays`). From the index's `streakCheckpoint`, when it has a usable one,
    /// only the days since it are walked (see `summaryAndCheckpoint`).
    public static func summary(
        _ index: CompletionIndex,
        threshold: StreakThreshold = .atLeastOneHabit,
        asOf: CivilDate
    ) -> StreakSummary {
        summaryAndCheckpoint(index, threshold: threshold, asOf: asOf).summary
    }

    /// The streak summary as of `asOf` (see `summary`), starting from the index's
    /// `streakCheckpoint` when it is usable; and a newer checkpoint to keep in the index
    /// (`keepStreakCheckpoint`), `StreakCheckpoint.reach` days before `asOf`, when the index has
    /// none as recent for `threshold`. With a kept checkpoint the walk costs O(log n) plus the
    /// days since it (and, with schedules, skips or rest periods, the habits and schedule
    /// entries), whatever the length of the history.
    public static func summaryAndCheckpoint(
        _ index: CompletionIndex,
        threshold: StreakThreshold,
        asOf: CivilDate
    ) -> (summary: StreakSummary, checkpoint: StreakCheckpoint?) {
        var steps = 0
        return summaryAndCheckpoint(index, threshold: threshold, asOf: asOf, steps: &steps)
    }

    /// `summaryAndCheckpoint`, adding to `steps` the days it walked (and the bridging walk's
    /// other steps, see `DueSweep`): tests use it to show that a summary resumes.
    static func summaryAndCheckpoint(
        _ index: CompletionIndex,
        threshold: StreakThreshold,
        asOf: CivilDate,
        steps: inout Int
    ) -> (summary: StreakSummary, checkpoint: StreakCheckpoint?) {
        let bridging = index.hasSchedulesSkipsOrRest
        let target = asOf.dayNumber - StreakCheckpoint.reach
        var from: StreakCheckpoint?
        var wanted: Int? = target
        if let kept = index.streakCheckpoint, kept.bridging == bridging, kept.threshold == threshold,
            index.daysBefore(kept.boundary) == kept.daysBefore
        {
            // Only a checkpoint later than the one kept replaces it: a summary of a past day
            // leaves today's in place.
            if kept.boundary >= target { wanted = nil }
            if kept.isUsable(for: threshold, asOf: asOf) { from = kept }
        }
        if bridging {
            return bridgingWalk(
                index,
                threshold: threshold,
                asOf: asOf,
                from: from,
                checkpointAt: wanted,
                steps: &steps
            )
        }
        let days = index.daysWithCompletions
        let last = asOf.dayNumber
        var walk = from?.state ?? StreakWalk()
        var slot = from?.daysBefore ?? 0
        var checkpoint: StreakCheckpoint?
        func take(_ boundary: Int) -> StreakCheckpoint {
            StreakCheckpoint(
                boundary: boundary,
                changes: index.streakCheckpointSlot.changes,
                daysBefore: slot,
                threshold: threshold,
                bridging: false,
                state: walk
            )
        }
        while slot < days.count {
            let day = days[slot]
            guard day <= last else { break }
            if let wanted, checkpoint == nil, day >= wanted { checkpoint = take(wanted) }
            if index.contributes(slot: slot, threshold: threshold) { walk.add(day) }
            slot += 1
            steps += 1
        }
        // No day from `wanted` through `asOf`: the walk so far is the days before `wanted`.
        if let wanted, checkpoint == nil { checkpoint = take(wanted) }
        return (summary(of: walk, asOf: asOf), checkpoint)
    }

    /// The summary as of `asOf` from a walk over every contributing day through it.
    private static func summary(of walk: StreakWalk, asOf: CivilDate) -> StreakSummary {
        let last = asOf.dayNumber
        var current = 0
        var pending = false
        if walk.runEnd == last {
            current = walk.runEnd - walk.runStart + 1
        } else if walk.runEnd == last - 1 {
            current = walk.runEnd - walk.runStart + 1
            pending = true
        }
        return StreakSummary(
            asOf: asOf,
            current: current,
            currentStart: current > 0 ? CivilDate(validDayNumber: walk.runStart) : nil,
            longest: walk.longest,
            longestStart: walk.longest > 0 ? CivilDate(validDayNumber: walk.longestStart) : nil,
            longestEnd: walk.longest > 0 ? CivilDate(validDayNumber: walk.longestEnd) : nil,
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
