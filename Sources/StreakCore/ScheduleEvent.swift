/// A moment at which a scheduled habit's contribution to a day's due count changes: it becomes
/// active, stops being active, or a schedule entry takes effect. Sweeps apply them in day order.
struct ScheduleEvent: Hashable, Sendable {
    /// What changes.
    enum Kind: Hashable, Sendable {
        /// The habit's window opens (its creation day).
        case activate
        /// A schedule entry takes effect.
        case weekdays(WeekdaySet)
        /// The habit's window closes (its archive day).
        case deactivate

        /// The order of kinds on one day, so that a window opened and closed on the same day ends closed.
        var rank: Int {
            switch self {
            case .activate: return 0
            case .weekdays: return 1
            case .deactivate: return 2
            }
        }
    }

    /// The day number it happens on.
    let day: Int
    /// The habit's position among the scheduled habits (`CompletionIndex.scheduleSlots`).
    let slot: Int
    /// What changes.
    let kind: Kind

    /// The events of every habit whose schedule is not every day, in the order sweeps apply them.
    static func timeline(of habits: [Habit], slots: [Int64: Int]) -> [ScheduleEvent] {
        var events: [ScheduleEvent] = []
        for habit in habits {
            guard let slot = slots[habit.id] else { continue }
            let window = ActiveWindow(habit)
            events.append(ScheduleEvent(day: window.start, slot: slot, kind: .activate))
            if window.end != .max { events.append(ScheduleEvent(day: window.end, slot: slot, kind: .deactivate)) }
            for entry in habit.schedule.entries {
                events.append(
                    ScheduleEvent(day: entry.effectiveFrom.dayNumber, slot: slot, kind: .weekdays(entry.weekdays))
                )
            }
        }
        events.sort { ($0.day, $0.kind.rank) < ($1.day, $1.kind.rank) }
        return events
    }
}
