/// Walks a completion index over days in ascending order and answers each day's completed, due
/// and active counts, with schedules, skips and rest periods.
///
/// Like `DaySweep`, every creation and archive day, day with completions or skips, schedule
/// event and rest period is passed once over the whole walk, and each completion and skip is
/// checked by one or two dictionary lookups, so the walk costs
/// O(days + completions + skips + schedule entries + habits + rest periods). Per weekday it
/// keeps how many active scheduled habits are *not* expected on it, so a day's due count never
/// scans the habits.
struct DueSweep: DayCounting {
    /// One scheduled habit as of the last day asked.
    private struct SlotState {
        var active = false
        var weekdays = WeekdaySet.everyDay
    }

    private let index: CompletionIndex
    private var created = 0
    private var archived = 0
    private var completionSlot: Int?
    private var skipSlot: Int?
    private var restSlot: Int?
    private var event = 0
    private var slots: [SlotState]
    /// Per weekday index (0 = Sunday), the active scheduled habits whose weekdays lack it.
    private var unexpected = [Int](repeating: 0, count: 7)
    private var lastDay = Int.min
    /// One per day asked, per completion and skip checked, per creation or archive day, schedule
    /// event and rest period passed.
    private(set) var steps = 0

    init(_ index: CompletionIndex) {
        self.index = index
        slots = [SlotState](repeating: SlotState(), count: index.scheduleSlots.count)
    }

    mutating func dayCounts(onDayNumber day: Int) -> DayCounts {
        precondition(day > lastDay, "a sweep only moves forward")
        lastDay = day
        steps += 1
        advanceWindows(to: day)
        let timeline = index.scheduleTimeline
        while event < timeline.count && timeline[event].day <= day {
            apply(timeline[event])
            event += 1
            steps += 1
        }
        let weekday = Weekday.index(ofDayNumber: day)
        let active = created - archived

        var completed = 0
        var expectedDone = 0
        var slot = completionSlot ?? index.firstSlot(onOrAfterDayNumber: day)
        let days = index.daysWithCompletions
        while slot < days.count && days[slot] < day { slot += 1 }
        if slot < days.count && days[slot] == day {
            for id in index.completedIDs[slot] {
                steps += 1
                guard index.windows[id]?.contains(day) ?? false else { continue }
                completed += 1
                if isScheduled(id, weekday: weekday) { expectedDone += 1 }
            }
            slot += 1
        }
        completionSlot = slot

        var expectedSkipped = 0
        let skips = index.skipTable
        var skip = skipSlot ?? skips.firstSlot(onOrAfterDayNumber: day)
        while skip < skips.days.count && skips.days[skip] < day { skip += 1 }
        if skip < skips.days.count && skips.days[skip] == day {
            for id in skips.ids[skip] {
                steps += 1
                // A skipped habit is never done the same day (the index keeps one state per day).
                if index.windows[id]?.contains(day) ?? false, isScheduled(id, weekday: weekday) { expectedSkipped += 1 }
            }
            skip += 1
        }
        skipSlot = skip

        let rest = index.restIntervals
        var restSlot = self.restSlot ?? rest.partitioningIndex { $0.upperBound >= day }
        while restSlot < rest.count && rest[restSlot].upperBound < day {
            restSlot += 1
            steps += 1
        }
        self.restSlot = restSlot
        if restSlot < rest.count && rest[restSlot].lowerBound <= day {
            return DayCounts(completed: completed, due: completed, active: active)
        }
        let expected = active - unexpected[weekday] - expectedDone - expectedSkipped
        return DayCounts(completed: completed, due: expected + completed, active: active)
    }

    private mutating func advanceWindows(to day: Int) {
        while created < index.createdDays.count && index.createdDays[created] <= day {
            created += 1
            steps += 1
        }
        while archived < index.archivedDays.count && index.archivedDays[archived] <= day {
            archived += 1
            steps += 1
        }
    }

    private func isScheduled(_ id: Int64, weekday: Int) -> Bool {
        guard !slots.isEmpty, let slot = index.scheduleSlots[id] else { return true }
        return slots[slot].weekdays.contains(index: weekday)
    }

    private mutating func apply(_ event: ScheduleEvent) {
        var state = slots[event.slot]
        count(state, by: -1)
        switch event.kind {
        case .activate: state.active = true
        case .deactivate: state.active = false
        case .weekdays(let weekdays): state.weekdays = weekdays
        }
        count(state, by: 1)
        slots[event.slot] = state
    }

    private mutating func count(_ state: SlotState, by delta: Int) {
        guard state.active else { return }
        for weekday in 0..<7 where !state.weekdays.contains(index: weekday) { unexpected[weekday] += delta }
    }
}
