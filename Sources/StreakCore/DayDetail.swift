/// A day with the habits done on it: what a popover shows.
public struct DayDetail: Hashable, Sendable {
    /// The day's record.
    public var record: DayRecord
    /// The completed habits that were active that day, by id.
    public var completedHabits: [Habit]
    /// The habits skipped that day, by id.
    public var skippedHabits: [Habit]
    /// The habits due that day and not done, by id.
    public var openHabits: [Habit]
    /// E.g. `March 5: 80% completed, 4 of 5 habits` (4 done of 5 due), or `March 5: rest day`.
    public var accessibilityLabel: String

    /// The detail of `date` from `index`.
    public init(
        _ index: CompletionIndex,
        date: CivilDate,
        threshold: StreakThreshold = .atLeastOneHabit,
        locale: LocaleProfile = .english
    ) {
        record = index.record(on: date, threshold: threshold)
        completedHabits = record.completedHabitIDs.compactMap(index.habit(id:))
        skippedHabits = index.skippedHabitIDs(on: date).compactMap(index.habit(id:))
        openHabits = index.openHabits(on: date)
        accessibilityLabel = AccessibilityLabel.text(
            date: date,
            completed: record.completed,
            due: record.due,
            active: record.active
        )
    }
}
