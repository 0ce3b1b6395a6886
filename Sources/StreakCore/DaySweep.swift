/// Walks a completion index over days in ascending order and answers each day's counts.
///
/// The creation and archive days and the days with completions are passed once each over the
/// whole walk, and each completion is checked against its habit's window by one dictionary
/// lookup (none while every completion is on an active day), so the walk costs
/// O(days + completions + habits): a heatmap of ten years of fifty habits never scans every
/// completion or every habit for every day.
struct DaySweep {
    private let index: CompletionIndex
    /// How many creation days are on or before the last day asked.
    private var created = 0
    /// How many archive days are on or before the last day asked.
    private var archived = 0
    /// The position in `daysWithCompletions` of the next day with completions; found by binary
    /// search on the first day asked, then only moved forward.
    private var slot: Int?
    private var lastDay = Int.min
    /// The elementary steps taken so far: one per day asked, per completion checked and per
    /// creation or archive day passed. Tests use it to show the cost is linear.
    private(set) var steps = 0

    init(_ index: CompletionIndex) {
        self.index = index
    }

    /// The completed (active habits only) and active counts of `day`, which must be after
    /// every day asked before.
    mutating func counts(onDayNumber day: Int) -> (completed: Int, active: Int) {
        precondition(day > lastDay, "a sweep only moves forward")
        lastDay = day
        steps += 1
        while created < index.createdDays.count && index.createdDays[created] <= day {
            created += 1
            steps += 1
        }
        while archived < index.archivedDays.count && index.archivedDays[archived] <= day {
            archived += 1
            steps += 1
        }
        var slot = self.slot ?? index.firstSlot(onOrAfterDayNumber: day)
        let days = index.daysWithCompletions
        while slot < days.count && days[slot] < day { slot += 1 }
        var completed = 0
        if slot < days.count && days[slot] == day {
            let ids = index.completedIDs[slot]
            steps += ids.count
            if index.everyCompletionIsActive {
                // Nothing to check: no completion of the index is on a day its habit was inactive.
                completed = ids.count
            } else {
                for id in ids where index.windows[id]?.contains(day) ?? false { completed += 1 }
            }
            slot += 1
        }
        self.slot = slot
        return (completed, created - archived)
    }
}
