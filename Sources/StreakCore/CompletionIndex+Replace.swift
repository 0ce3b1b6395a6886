extension CompletionIndex {
    /// The day numbers that hold a completion or a skip, ascending.
    public var dayNumbersWithRecords: [Int] {
        guard !skipTable.isEmpty else { return daysWithCompletions }
        return Array(Set(daysWithCompletions).union(skipTable.days)).sorted()
    }

    /// The days on which `other` holds other completions or skips than this index, ascending
    /// (whatever the habits' windows: the sets of ids are compared). Costs O(days with records).
    public func daysWithOtherRecords(than other: CompletionIndex) -> [CivilDate] {
        Set(dayNumbersWithRecords).union(other.dayNumbersWithRecords).sorted().compactMap { day in
            guard
                allCompletedHabitIDs(onDayNumber: day) != other.allCompletedHabitIDs(onDayNumber: day)
                    || skipTable.ids(onDayNumber: day) != other.skipTable.ids(onDayNumber: day)
            else { return nil }
            return try? CivilDate(dayNumber: day)
        }
    }

    /// Makes one day hold exactly `completed` and `skipped` (habit ids, any order; a habit in both
    /// is done, as in `init`), whatever it held before: a day read again from the store.
    /// Costs O(log n) plus the habits of that day.
    /// - Returns: whether anything changed.
    @discardableResult
    public mutating func replaceDay(_ date: CivilDate, completed: Set<Int64>, skipped: Set<Int64>) -> Bool {
        let day = date.dayNumber
        let before = Set(allCompletedHabitIDs(onDayNumber: day))
        let beforeSkipped = Set(skipTable.ids(onDayNumber: day))
        let skippedOnly = skipped.subtracting(completed)
        guard before != completed || beforeSkipped != skippedOnly else { return false }
        for id in before.union(beforeSkipped).union(completed).union(skippedOnly) {
            let target: HabitDayState =
                completed.contains(id) ? .done : skippedOnly.contains(id) ? .skipped : .nothing
            switch (state(habitID: id, on: date), target) {
            case (let now, let wanted) where now == wanted: continue
            case (_, .done): apply(.complete, habitID: id, date: date)
            case (_, .skipped): apply(.skip, habitID: id, date: date)
            case (.done, .nothing): apply(.uncomplete, habitID: id, date: date)
            default: apply(.unskip, habitID: id, date: date)
            }
        }
        return true
    }

    /// Replaces every habit (with its schedule) by `habits`, keeping completions and skips: the
    /// habits read again from the store. When only names changed, the day windows and the streak
    /// checkpoint are kept. - Returns: whether anything changed.
    @discardableResult
    public mutating func replaceHabits(_ habits: [Habit]) -> Bool {
        let sorted = habits.sorted { $0.id < $1.id }
        guard sorted != self.habits else { return false }
        let sameDays =
            sorted.count == self.habits.count
            && zip(sorted, self.habits).allSatisfy { $0.countsOnSameDays(as: $1) }
        self.habits = sorted
        if !sameDays { rebuildWindows() }
        return true
    }
}
