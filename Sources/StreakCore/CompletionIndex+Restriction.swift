extension CompletionIndex {
    /// The index of the habits in `habitIDs` alone: their completions, skips and schedules, and
    /// every rest period (they are the user's). Heatmaps, streaks, day records, weekday charts and
    /// month pages computed from it are the per-habit views: active, due and completed are counted
    /// over these habits only. An empty set gives an index without habits.
    /// Cost: linear in the habits, completions and skips.
    /// - Throws: `CoreError(.notFound)` naming the smallest id the user does not have.
    public func restricted(to habitIDs: Set<Int64>) throws(CoreError) -> CompletionIndex {
        if let missing = habitIDs.filter({ habit(id: $0) == nil }).min() {
            throw CoreError(.notFound, "no habit with id \(missing) (habit_ids)")
        }
        var restricted = self
        restricted.habits = habits.filter { habitIDs.contains($0.id) }
        var days: [Int] = []
        var ids: [[Int64]] = []
        for (day, dayIDs) in zip(daysWithCompletions, completedIDs) {
            let kept = dayIDs.filter(habitIDs.contains)
            guard !kept.isEmpty else { continue }
            days.append(day)
            ids.append(kept)
        }
        restricted.daysWithCompletions = days
        restricted.completedIDs = ids
        restricted.skipTable = skipTable.filtered(habitIDs.contains)
        restricted.rebuildWindows()
        return restricted
    }
}
