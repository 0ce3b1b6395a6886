/// A user's habits and completions, indexed by day for O(log n) day records.
///
/// Built once in time linear in habits and completions; updated in place when a completion
/// or habit changes, so a server can keep one per user in memory. Active-habit counts come
/// from sorted creation and archive days (binary search, or a `DaySweep` over consecutive
/// days), never from scanning habits per day.
public struct CompletionIndex: Hashable, Sendable {
    /// Every habit, archived ones included, by id.
    public private(set) var habits: [Habit]
    /// Day number -> ids of the habits completed that day, ascending (active or not).
    private(set) var completionsByDay: [Int: [Int64]]
    /// The day numbers that have at least one completion, ascending.
    public private(set) var daysWithCompletions: [Int]
    /// Habit id -> the day numbers on which it is active, for a constant-time check per completion.
    private(set) var windows: [Int64: ActiveWindow]
    /// Each habit's first active day number, ascending.
    private(set) var createdDays: [Int]
    /// Each archived habit's first inactive day number, ascending (see `ActiveWindow`).
    private(set) var archivedDays: [Int]

    /// Indexes `habits` and `completions` (duplicates count once).
    public init(habits: [Habit], completions: [Completion]) {
        self.habits = habits.sorted { $0.id < $1.id }
        var byDay: [Int: [Int64]] = [:]
        for completion in completions { byDay[completion.date.dayNumber, default: []].append(completion.habitID) }
        for (day, ids) in byDay { byDay[day] = Array(Set(ids)).sorted() }
        completionsByDay = byDay
        daysWithCompletions = byDay.keys.sorted()
        windows = [:]
        createdDays = []
        archivedDays = []
        rebuildWindows()
    }

    /// The habit with `id`, if any.
    public func habit(id: Int64) -> Habit? {
        let index = habitIndex(id)
        return index < habits.count && habits[index].id == id ? habits[index] : nil
    }

    /// Adds a habit or replaces the one with the same id.
    public mutating func upsert(_ habit: Habit) {
        let index = habitIndex(habit.id)
        if index < habits.count && habits[index].id == habit.id {
            habits[index] = habit
        } else {
            habits.insert(habit, at: index)
        }
        rebuildWindows()
    }

    /// Records a completion. - Returns: whether it was new.
    @discardableResult
    public mutating func record(habitID: Int64, date: CivilDate) -> Bool {
        let day = date.dayNumber
        var ids = completionsByDay[day] ?? []
        let position = ids.partitioningIndex { $0 >= habitID }
        guard position == ids.count || ids[position] != habitID else { return false }
        ids.insert(habitID, at: position)
        if ids.count == 1 { daysWithCompletions.insert(day, at: daysWithCompletions.partitioningIndex { $0 >= day }) }
        completionsByDay[day] = ids
        return true
    }

    /// Removes a completion. - Returns: whether it was there.
    @discardableResult
    public mutating func remove(habitID: Int64, date: CivilDate) -> Bool {
        let day = date.dayNumber
        guard var ids = completionsByDay[day], let position = ids.firstIndex(of: habitID) else { return false }
        ids.remove(at: position)
        if ids.isEmpty {
            completionsByDay[day] = nil
            daysWithCompletions.remove(at: daysWithCompletions.partitioningIndex { $0 >= day })
        } else {
            completionsByDay[day] = ids
        }
        return true
    }

    /// How many habits are active on `date` (never negative).
    public func activeCount(on date: CivilDate) -> Int {
        let day = date.dayNumber
        let created = createdDays.partitioningIndex { $0 > day }
        let archived = archivedDays.partitioningIndex { $0 > day }
        return created - archived
    }

    /// The ids of habits completed on `date` that were active that day, ascending.
    public func completedHabitIDs(on date: CivilDate) -> [Int64] {
        completedHabitIDs(onDayNumber: date.dayNumber)
    }

    /// The ids of habits completed on the day number that were active that day, ascending.
    func completedHabitIDs(onDayNumber day: Int) -> [Int64] {
        guard let ids = completionsByDay[day] else { return [] }
        return ids.filter { windows[$0]?.contains(day) ?? false }
    }

    /// The record of `date` under `threshold`.
    public func record(on date: CivilDate, threshold: StreakThreshold = .atLeastOneHabit) -> DayRecord {
        DayRecord(
            date: date,
            completedHabitIDs: completedHabitIDs(on: date),
            active: activeCount(on: date),
            threshold: threshold
        )
    }

    /// The first day with a completion, if any.
    public var firstCompletionDate: CivilDate? { daysWithCompletions.first.flatMap { try? CivilDate(dayNumber: $0) } }

    private func habitIndex(_ id: Int64) -> Int { habits.partitioningIndex { $0.id >= id } }

    private mutating func rebuildWindows() {
        let all = habits.map { ($0.id, ActiveWindow($0)) }
        windows = Dictionary(all, uniquingKeysWith: { first, _ in first })
        createdDays = all.map(\.1.start).sorted()
        archivedDays = all.compactMap { $0.1.end == .max ? nil : $0.1.end }.sorted()
    }
}

/// The day numbers `start..<end` on which a habit is active; `end` is `Int.max` while it is live.
struct ActiveWindow: Hashable, Sendable {
    let start: Int
    let end: Int

    /// The window of `habit`. `Habit` refuses an archive day before the creation day; should one
    /// get through anyway, the window is clamped to empty, so that active counts (created minus
    /// archived) never go negative.
    init(_ habit: Habit) {
        let start = habit.createdOn.dayNumber
        self.start = start
        end = habit.archivedOn.map { Swift.max($0.dayNumber, start) } ?? .max
    }

    func contains(_ day: Int) -> Bool { start <= day && day < end }
}

extension Array {
    /// The first index whose element satisfies `predicate`, for a predicate false then true along the array.
    func partitioningIndex(where predicate: (Element) -> Bool) -> Int {
        var low = 0
        var high = count
        while low < high {
            let middle = (low + high) / 2
            if predicate(self[middle]) { high = middle } else { low = middle + 1 }
        }
        return low
    }
}
