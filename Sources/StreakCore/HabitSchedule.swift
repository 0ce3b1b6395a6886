/// One schedule change: from `effectiveFrom` on, the habit is expected on `weekdays`.
public struct ScheduleEntry: Hashable, Sendable {
    /// The first day the entry applies to.
    public var effectiveFrom: CivilDate
    /// The weekdays on which the habit is expected from then on.
    public var weekdays: WeekdaySet

    /// Creates an entry.
    public init(effectiveFrom: CivilDate, weekdays: WeekdaySet) {
        self.effectiveFrom = effectiveFrom
        self.weekdays = weekdays
    }
}

/// The weekdays on which a habit is expected, as effective-dated entries.
///
/// On day d the entry with the latest `effectiveFrom` on or before d applies; before the first
/// entry (and with no entry at all) the habit is expected every day. A change takes effect from
/// its date and never rewrites the days before it.
public struct HabitSchedule: Hashable, Sendable {
    /// The entries, ascending by `effectiveFrom`, at most one per date.
    public private(set) var entries: [ScheduleEntry]

    /// Every day: the schedule of a habit that never had one.
    public static let everyDay = HabitSchedule()

    /// A schedule from entries in any order; a later entry with the same date replaces an earlier one.
    public init(_ entries: [ScheduleEntry] = []) {
        self.entries = []
        for entry in entries { set(entry.weekdays, from: entry.effectiveFrom) }
    }

    /// Whether the habit is expected every day on every date (no entry, or only every-day entries).
    public var isEveryDay: Bool { entries.allSatisfy { $0.weekdays == .everyDay } }

    /// Expects the habit on `weekdays` from `date` on, replacing an entry of the same date.
    public mutating func set(_ weekdays: WeekdaySet, from date: CivilDate) {
        let position = entries.partitioningIndex { $0.effectiveFrom >= date }
        let entry = ScheduleEntry(effectiveFrom: date, weekdays: weekdays)
        if position < entries.count && entries[position].effectiveFrom == date {
            entries[position] = entry
        } else {
            entries.insert(entry, at: position)
        }
    }

    /// The weekdays that apply on `date`.
    public func weekdays(on date: CivilDate) -> WeekdaySet {
        weekdays(onDayNumber: date.dayNumber)
    }

    /// Whether the habit is expected on `date` by its schedule alone (skips and rest periods aside).
    public func isScheduled(on date: CivilDate) -> Bool {
        weekdays(on: date).contains(date.weekday)
    }

    /// The weekdays that apply on the day number (binary search over the entries).
    func weekdays(onDayNumber day: Int) -> WeekdaySet {
        let next = entries.partitioningIndex { $0.effectiveFrom.dayNumber > day }
        return next == 0 ? .everyDay : entries[next - 1].weekdays
    }
}
