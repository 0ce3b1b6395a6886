extension CompletionIndex {
    /// Expects a habit on `weekdays` from `date` on; the days before keep their schedule.
    /// - Throws: `CoreError(.notFound)` when there is no habit with `habitID`.
    public mutating func setSchedule(habitID: Int64, weekdays: WeekdaySet, from date: CivilDate) throws(CoreError) {
        guard var habit = habit(id: habitID) else { throw CoreError(.notFound, "no habit with id \(habitID)") }
        habit.schedule.set(weekdays, from: date)
        upsert(habit)
    }

    /// Whether some habit, skip or rest period makes a day's due count differ from its active
    /// count. While false, every computation takes the path of users without any of them.
    public var hasSchedulesSkipsOrRest: Bool {
        !scheduleSlots.isEmpty || !skipTable.isEmpty || !restIntervals.isEmpty
    }

    /// Whether habit `id`'s schedule expects it on the day number (skips and rest periods aside).
    func isScheduled(_ id: Int64, onDayNumber day: Int) -> Bool {
        guard scheduleSlots[id] != nil, let habit = habit(id: id) else { return true }
        return habit.schedule.weekdays(onDayNumber: day).contains(index: Weekday.index(ofDayNumber: day))
    }

    /// How many habits are due on the day number, given the ids of the active habits done that day
    /// and the active count: the done ones, plus those scheduled, not skipped, with no rest period.
    /// Cost: O(log n) per scheduled habit and per skip that day; `active` itself without any.
    func dueCount(onDayNumber day: Int, done: [Int64], active: Int) -> Int {
        guard hasSchedulesSkipsOrRest else { return active }
        if isResting(onDayNumber: day) { return done.count }
        let weekday = Weekday.index(ofDayNumber: day)
        var expected = active
        for (id, _) in scheduleSlots where isActive(id, onDayNumber: day) {
            guard let habit = habit(id: id) else { continue }
            if !habit.schedule.weekdays(onDayNumber: day).contains(index: weekday) { expected -= 1 }
        }
        for id in done where isScheduled(id, onDayNumber: day) { expected -= 1 }
        for id in skipTable.ids(onDayNumber: day)
        where isActive(id, onDayNumber: day) && isScheduled(id, onDayNumber: day) && !done.contains(id) {
            expected -= 1
        }
        return expected + done.count
    }
}
