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
        let last = asOf.dayNumber
        var run = (start: 0, end: 0, length: 0)
        var broken = true
        var longest = (start: 0, end: 0, length: 0)
        if let first = index.daysWithCompletions.first, let lastCompletion = index.daysWithCompletions.last {
            var sweep = DueSweep(index)
            var day = first
            while day <= last {
                let counts = sweep.dayCounts(onDayNumber: day)
                if threshold.contributes(completed: counts.completed, active: counts.due) {
                    if broken { run = (day, day, 0) }
                    broken = false
                    run.end = day
                    run.length += 1
                    if run.length >= longest.length { longest = run }
                } else if day != last && !counts.isRestDay {
                    broken = true
                    // No day after the last completion contributes: nothing can change any more.
                    if day >= lastCompletion { break }
                }
                day += 1
            }
            steps += sweep.steps
        }
        let current = broken ? 0 : run.length
        return StreakSummary(
            asOf: asOf,
            current: current,
            currentStart: current > 0 ? CivilDate(validDayNumber: run.start) : nil,
            longest: longest.length,
            longestStart: longest.length > 0 ? CivilDate(validDayNumber: longest.start) : nil,
            longestEnd: longest.length > 0 ? CivilDate(validDayNumber: longest.end) : nil,
            todayPending: current > 0 && run.end != last
        )
    }
}
