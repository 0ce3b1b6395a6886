/// The counts of one day: habits done (of the active ones), due and active.
struct DayCounts: Hashable, Sendable {
    /// Active habits completed that day.
    var completed: Int
    /// Active habits due that day (done, or scheduled, not skipped, not resting).
    var due: Int
    /// Habits active that day.
    var active: Int

    /// Whether every active habit was excused: a neutral day.
    var isRestDay: Bool { active > 0 && due == 0 }
}

/// A walk over ascending days that answers each day's counts and counts its elementary steps.
protocol DayCounting {
    /// The counts of the day number, which must be after every day asked before.
    mutating func dayCounts(onDayNumber day: Int) -> DayCounts
    /// The elementary steps taken so far (tests use them to show the cost is linear).
    var steps: Int { get }
}

extension DaySweep: DayCounting {
    /// The counts of a user without schedules, skips or rest periods: every active habit is due.
    mutating func dayCounts(onDayNumber day: Int) -> DayCounts {
        let (completed, active) = counts(onDayNumber: day)
        return DayCounts(completed: completed, due: active, active: active)
    }
}
