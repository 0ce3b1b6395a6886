/// Habit ids per day as two parallel sorted arrays (the days ascending, each day's ids ascending):
/// the skips of a `CompletionIndex`, walked in day order by sweeps and streaks.
struct DayHabitTable: Hashable, Sendable {
    /// The day numbers with at least one id, ascending.
    private(set) var days: [Int] = []
    /// The ids of each day of `days` (same position), ascending, never empty.
    private(set) var ids: [[Int64]] = []

    init() {}

    /// A table of `(habit id, day number)` pairs; duplicates count once.
    init(_ pairs: some Sequence<(Int64, Int)>) {
        var byDay: [Int: Set<Int64>] = [:]
        for (id, day) in pairs { byDay[day, default: []].insert(id) }
        days = byDay.keys.sorted()
        ids = days.map { (byDay[$0] ?? []).sorted() }
    }

    /// Whether the table holds no id.
    var isEmpty: Bool { days.isEmpty }

    /// How many (id, day) pairs the table holds.
    var count: Int { ids.reduce(0) { $0 + $1.count } }

    /// The position in `days` of the first day on or after the day number.
    func firstSlot(onOrAfterDayNumber day: Int) -> Int { days.partitioningIndex { $0 >= day } }

    /// The ids on the day number, ascending.
    func ids(onDayNumber day: Int) -> [Int64] {
        let slot = firstSlot(onOrAfterDayNumber: day)
        return slot < days.count && days[slot] == day ? ids[slot] : []
    }

    /// Whether `id` is in the table on the day number.
    func contains(_ id: Int64, onDayNumber day: Int) -> Bool {
        let slot = firstSlot(onOrAfterDayNumber: day)
        guard slot < days.count && days[slot] == day else { return false }
        let position = ids[slot].partitioningIndex { $0 >= id }
        return position < ids[slot].count && ids[slot][position] == id
    }

    /// Adds `id` on the day number. - Returns: whether it was new.
    mutating func insert(_ id: Int64, onDayNumber day: Int) -> Bool {
        let slot = firstSlot(onOrAfterDayNumber: day)
        guard slot < days.count && days[slot] == day else {
            days.insert(day, at: slot)
            ids.insert([id], at: slot)
            return true
        }
        let position = ids[slot].partitioningIndex { $0 >= id }
        guard position == ids[slot].count || ids[slot][position] != id else { return false }
        ids[slot].insert(id, at: position)
        return true
    }

    /// Removes `id` on the day number. - Returns: whether it was there.
    mutating func remove(_ id: Int64, onDayNumber day: Int) -> Bool {
        let slot = firstSlot(onOrAfterDayNumber: day)
        guard slot < days.count && days[slot] == day, let position = ids[slot].firstIndex(of: id) else { return false }
        if ids[slot].count == 1 {
            days.remove(at: slot)
            ids.remove(at: slot)
        } else {
            ids[slot].remove(at: position)
        }
        return true
    }

    /// The table with only the ids `keep` accepts, in time linear in its size.
    func filtered(_ keep: (Int64) -> Bool) -> DayHabitTable {
        var table = DayHabitTable()
        for (day, dayIDs) in zip(days, ids) {
            let kept = dayIDs.filter(keep)
            guard !kept.isEmpty else { continue }
            table.days.append(day)
            table.ids.append(kept)
        }
        return table
    }
}
