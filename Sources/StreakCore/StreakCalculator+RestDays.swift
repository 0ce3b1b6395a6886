extension StreakCalculator {
    /// The streak summary of a user with schedules, skips or rest periods, walking every day from
    /// the first completion through `asOf` with a `DueSweep`, and adding its steps to `steps`.
    ///
    /// Each day is contributing, a rest day (neither breaks nor counts) or breaking; `asOf`
    /// itself never breaks. Once a day after the last completion breaks the run, nothing can
    /// change any more and the walk stops, so it costs O(days of history + completions + skips +
    /// schedule entries + habits + rest periods), never the days up to a far `asOf`.
    static func summaryBridgingRestDays(
        _ index: CompletionIndex,
        threshold: StreakThreshold,
        asOf: CivilDate,
        steps: inout Int
    ) -> StreakSummary {
        bridgingWalk(index, threshold: threshold, asOf: asOf, from: nil, checkpointAt: nil, steps: &steps).summary
    }

    /// The walk of `summaryBridgingRestDays`, from a checkpoint of it when given (the days before
    /// its boundary are not walked again) and taking one at the day number `checkpointAt` when
    /// given (before `asOf`).
    static func bridgingWalk(
        _ index: CompletionIndex,
        threshold: StreakThreshold,
        asOf: CivilDate,
        from start: StreakCheckpoint?,
        checkpointAt wanted: Int?,
        steps: inout Int
    ) -> (summary: StreakSummary, checkpoint: StreakCheckpoint?) {
        let last = asOf.dayNumber
        var walk = start?.state ?? StreakWalk()
        var checkpoint: StreakCheckpoint?
        func take(_ boundary: Int) -> StreakCheckpoint {
            StreakCheckpoint(
                boundary: boundary,
                changes: index.streakCheckpointSlot.changes,
                daysBefore: index.daysBefore(boundary),
                threshold: threshold,
                bridging: true,
                state: walk
            )
        }
        if let first = index.daysWithCompletions.first, let lastCompletion = index.daysWithCompletions.last {
            // A sweep may start on any day: it passes the earlier habits' windows and schedule
            // entries on its first step, and finds the rest by binary search.
            var sweep = DueSweep(index)
            var day = max(first, start?.boundary ?? first)
            while day <= last {
                if let wanted, checkpoint == nil, day >= wanted { checkpoint = take(wanted) }
                let counts = sweep.dayCounts(onDayNumber: day)
                if threshold.contributes(completed: counts.completed, active: counts.due) {
                    walk.addBridging(day)
                } else if day != last && !counts.isRestDay {
                    walk.broken = true
                    // No day after the last completion contributes: nothing can change any more.
                    if day >= lastCompletion { break }
                }
                day += 1
            }
            steps += sweep.steps
        }
        // The walk stopped before `wanted` (or never started): every day from where it stopped up
        // to `wanted` has no completion, so it could only have broken the run again.
        if let wanted, checkpoint == nil { checkpoint = take(wanted) }
        let current = walk.broken ? 0 : walk.runLength
        let summary = StreakSummary(
            asOf: asOf,
            current: current,
            currentStart: current > 0 ? CivilDate(validDayNumber: walk.runStart) : nil,
            longest: walk.longest,
            longestStart: walk.longest > 0 ? CivilDate(validDayNumber: walk.longestStart) : nil,
            longestEnd: walk.longest > 0 ? CivilDate(validDayNumber: walk.longestEnd) : nil,
            todayPending: current > 0 && walk.runEnd != last
        )
        return (summary, checkpoint)
    }
}
