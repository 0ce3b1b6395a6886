extension CompletionIndex {
    /// Whether habit `habitID` is due on `date`: active that day, and either done that day, or
    /// scheduled that weekday, not skipped and in no rest period.
    public func isDue(habitID: Int64, on date: CivilDate) -> Bool {
        let day = date.dayNumber
        guard isActive(habitID, onDayNumber: day) else { return false }
        if hasCompletion(habitID: habitID, onDayNumber: day) { return true }
        return isScheduled(habitID, onDayNumber: day) && !skipTable.contains(habitID, onDayNumber: day)
            && !isResting(onDayNumber: day)
    }

    /// The habits due on `date` and not done, by id.
    public func openHabits(on date: CivilDate) -> [Habit] {
        habits.filter { isDue(habitID: $0.id, on: date) && !hasCompletion(habitID: $0.id, onDayNumber: date.dayNumber) }
    }
}
