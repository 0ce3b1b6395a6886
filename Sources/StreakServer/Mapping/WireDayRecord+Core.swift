import StreakCore
import StreakWire

extension WireDayRecord {
    /// The wire form of a day record.
    init(_ record: DayRecord) {
        self.init()
        date = record.date
        completedHabitIds = record.completedHabitIDs
        completed = Int32(record.completed)
        active = Int32(record.active)
        percent = Int32(record.percentage)
        level = Int32(record.level.rawValue)
        contributing = record.contributes
        due = Int32(record.due)
        rest = record.isRestDay
        skippedHabitIds = record.skippedHabitIDs
    }
}

extension WireDayDetail {
    /// The wire form of a day's detail (the popover).
    init(_ detail: DayDetail) {
        self.init()
        date = detail.record.date
        completedHabits = detail.completedHabits.map(WireHabit.init)
        completed = Int32(detail.record.completed)
        active = Int32(detail.record.active)
        percent = Int32(detail.record.percentage)
        level = Int32(detail.record.level.rawValue)
        contributing = detail.record.contributes
        accessibilityLabel = detail.accessibilityLabel
        due = Int32(detail.record.due)
        rest = detail.record.isRestDay
        skippedHabits = detail.skippedHabits.map(WireHabit.init)
        openHabits = detail.openHabits.map(WireHabit.init)
    }
}

extension WireStreakSummary {
    /// The wire form of a streak summary.
    init(_ summary: StreakSummary) {
        self.init()
        asOf = summary.asOf
        current = Int32(summary.current)
        currentStart = summary.currentStart
        longest = Int32(summary.longest)
        longestStart = summary.longestStart
        longestEnd = summary.longestEnd
        todayPending = summary.todayPending
    }
}
