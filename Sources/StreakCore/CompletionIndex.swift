/// A user's habits and completions (and skips, schedules and rest periods), indexed by day for
/// O(log n) day records.
///
/// Built once in time linear in habits and completions; updated in place when a completion
/// or habit changes, so a server can keep one per user in memory. Active-habit counts come
/// from sorted creation and archive days (binary search, or a `DaySweep` over consecutive
/// days), never from scanning habits per day.
public struct CompletionIndex: Hashable, Sendable {
    /// Every habit, archived ones included, by id.
    public internal(set) var habits: [Habit]
    /// The day numbers that have at least one completion, ascending.
    public internal(set) var daysWithCompletions: [Int]
    /// The ids of the habits completed on each day of `daysWithCompletions` (same position),
    /// ascending, active or not. Two sorted arrays rather than a dictionary: streak summaries
    /// walk every day in order, and do it after every write.
    var completedIDs: [[Int64]]
    /// Habit id -> the day numbers on which it is active, for a constant-time check per completion.
    private(set) var windows: [Int64: ActiveWindow]
    /// Each habit's first active day number, ascending.
    private(set) var createdDays: [Int]
    /// Each archived habit's first inactive day number, ascending (see `ActiveWindow`).
    private(set) var archivedDays: [Int]
    /// Completions on days their habit was not active. While there are none, every day in
    /// `daysWithCompletions` has a completed active habit, which streaks use to skip the check.
    private var inactiveCompletionCount = 0
    /// The skips by day. Never holds a habit on a day it is completed: per habit and day the state
    /// is exactly one of done, skipped, nothing.
    var skipTable = DayHabitTable()
    /// The rest periods as given, in the order given.
    public private(set) var restPeriods: [RestPeriod] = []
    /// The rest periods as day-number ranges, merged where they overlap or touch, ascending.
    private(set) var restIntervals: [ClosedRange<Int>] = []
    /// The position of each habit whose schedule is not every day among such habits.
    private(set) var scheduleSlots: [Int64: Int] = [:]
    /// The windows and schedule entries of the habits in `scheduleSlots`, in day order.
    private(set) var scheduleTimeline: [ScheduleEvent] = []
    /// Where the last streak summary's walk stood some days before its `asOf`, while nothing
    /// before that day changed (not part of the index's value: see `StreakCheckpointSlot`).
    var streakCheckpointSlot = StreakCheckpointSlot()

    /// Indexes `habits` (with their schedules), `completions`, `skips` and `restPeriods`
    /// (duplicates count once). A skip of a habit on a day it is also completed is dropped: the
    /// day is done. The stateless builders use this to get a stateful user's answers.
    /// `completionDays` adds more completions, as each habit's day numbers (days since 1970-01-01, in
    /// any order), the compact form of BuildHeatmap's input.
    public init(
        habits: [Habit],
        completions: [Completion],
        completionDays: [(habitID: Int64, dayNumbers: [Int])] = [],
        skips: [Skip] = [],
        restPeriods: [RestPeriod] = []
    ) {
        self.habits = habits.sorted { $0.id < $1.id }
        (daysWithCompletions, completedIDs) = Self.grouped(completions, completionDays)
        createdDays = []
        archivedDays = []
        windows = [:]
        self.restPeriods = restPeriods
        restIntervals = Self.merged(restPeriods)
        rebuildWindows()
        if !skips.isEmpty {
            let open = skips.filter { !hasCompletion(habitID: $0.habitID, onDayNumber: $0.date.dayNumber) }
            skipTable = DayHabitTable(open.map { ($0.habitID, $0.date.dayNumber) })
        }
    }

    /// The completions' days, ascending, and each day's habit ids, ascending, duplicates once:
    /// sorted (day, habit) pairs grouped in one pass, which loading a user does for every
    /// completion it has (hashing each day into a dictionary of sets cost several times more).
    private static func grouped(
        _ completions: [Completion],
        _ completionDays: [(habitID: Int64, dayNumbers: [Int])]
    ) -> (days: [Int], ids: [[Int64]]) {
        let pairs = sortedByDayThenHabit(completions, completionDays)
        var days: [Int] = []
        var ids: [[Int64]] = []
        for (day, habit) in pairs {
            if days.last == day {
                if ids[ids.count - 1].last != habit { ids[ids.count - 1].append(habit) }
            } else {
                days.append(day)
                ids.append([habit])
            }
        }
        return (days, ids)
    }

    /// Every (day, habit) pair of the input, sorted by day, then habit. By counting the days when
    /// they span not much more days than there are pairs (a user's years of completions), placed
    /// straight from the input into the one array (no unsorted copy: a stateless BuildHeatmap may
    /// bring millions of completions), each day's few habits then sorted in place where they came
    /// out of order; else collected and sorted by comparison.
    private static func sortedByDayThenHabit(
        _ completions: [Completion],
        _ completionDays: [(habitID: Int64, dayNumbers: [Int])]
    ) -> [(day: Int, habit: Int64)] {
        func forEachPair(_ body: (Int, Int64) -> Void) {
            for completion in completions { body(completion.date.dayNumber, completion.habitID) }
            for (habitID, dayNumbers) in completionDays {
                for day in dayNumbers { body(day, habitID) }
            }
        }
        var count = 0
        var low = Int.max
        var high = Int.min
        forEachPair { day, _ in
            count += 1
            low = Swift.min(low, day)
            high = Swift.max(high, day)
        }
        guard count > 0 else { return [] }
        let span = high - low + 1
        guard span <= 4 * count + 64 else {
            var pairs: [(day: Int, habit: Int64)] = []
            pairs.reserveCapacity(count)
            forEachPair { pairs.append(($0, $1)) }
            pairs.sort { $0.day != $1.day ? $0.day < $1.day : $0.habit < $1.habit }
            return pairs
        }
        // Where each day's pairs start, then each pair placed there in input order.
        var next = [Int](repeating: 0, count: span)
        forEachPair { day, _ in next[day - low] += 1 }
        var start = 0
        for offset in 0..<span {
            let dayCount = next[offset]
            next[offset] = start
            start += dayCount
        }
        var ordered = [(day: Int, habit: Int64)](unsafeUninitializedCapacity: count) { buffer, initialized in
            forEachPair { day, habit in
                buffer.initializeElement(at: next[day - low], to: (day, habit))
                next[day - low] += 1
            }
            initialized = count
        }
        var runStart = 0
        while runStart < ordered.count {
            var runEnd = runStart + 1
            var ascending = true
            while runEnd < ordered.count && ordered[runEnd].day == ordered[runStart].day {
                if ordered[runEnd].habit < ordered[runEnd - 1].habit { ascending = false }
                runEnd += 1
            }
            if !ascending { ordered[runStart..<runEnd].sort { $0.habit < $1.habit } }
            runStart = runEnd
        }
        return ordered
    }

    /// The habit with `id`, if any.
    public func habit(id: Int64) -> Habit? {
        let index = habitIndex(id)
        return index < habits.count && habits[index].id == id ? habits[index] : nil
    }

    /// Adds a habit or replaces the one with the same id. A replacement that counts on the same
    /// days (a rename) keeps the day windows and the streak checkpoint.
    public mutating func upsert(_ habit: Habit) {
        let index = habitIndex(habit.id)
        if index < habits.count && habits[index].id == habit.id {
            let sameDays = habits[index].countsOnSameDays(as: habit)
            habits[index] = habit
            if sameDays { return }
        } else {
            habits.insert(habit, at: index)
        }
        rebuildWindows()
    }

    /// Records a completion. - Returns: whether it was new.
    @discardableResult
    /// A skip of the habit that day is removed: completing a skipped day makes it done.
    public mutating func record(habitID: Int64, date: CivilDate) -> Bool {
        let day = date.dayNumber
        streakCheckpointSlot.noteChange(onDayNumber: day)
        if !skipTable.isEmpty { _ = skipTable.remove(habitID, onDayNumber: day) }
        let slot = daysWithCompletions.partitioningIndex { $0 >= day }
        guard slot < daysWithCompletions.count && daysWithCompletions[slot] == day else {
            daysWithCompletions.insert(day, at: slot)
            completedIDs.insert([habitID], at: slot)
            countInactive(habitID, day, by: 1)
            return true
        }
        let position = completedIDs[slot].partitioningIndex { $0 >= habitID }
        guard position == completedIDs[slot].count || completedIDs[slot][position] != habitID else { return false }
        completedIDs[slot].insert(habitID, at: position)
        countInactive(habitID, day, by: 1)
        return true
    }

    /// Removes a completion. - Returns: whether it was there.
    @discardableResult
    public mutating func remove(habitID: Int64, date: CivilDate) -> Bool {
        guard let slot = slot(ofDayNumber: date.dayNumber),
            let position = completedIDs[slot].firstIndex(of: habitID)
        else { return false }
        streakCheckpointSlot.noteChange(onDayNumber: date.dayNumber)
        if completedIDs[slot].count == 1 {
            daysWithCompletions.remove(at: slot)
            completedIDs.remove(at: slot)
        } else {
            completedIDs[slot].remove(at: position)
        }
        countInactive(habitID, date.dayNumber, by: -1)
        return true
    }

    /// Replaces every rest period.
    public mutating func replaceRestPeriods(_ periods: [RestPeriod]) {
        streakCheckpointSlot.noteChangeOfAnyDay()
        restPeriods = periods
        restIntervals = Self.merged(periods)
    }

    /// How many habits are active on `date` (never negative).
    public func activeCount(on date: CivilDate) -> Int {
        activeCount(onDayNumber: date.dayNumber)
    }

    /// How many habits are active on the day number.
    func activeCount(onDayNumber day: Int) -> Int {
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
        guard let slot = slot(ofDayNumber: day) else { return [] }
        return completedIDs[slot].filter { isActive($0, onDayNumber: day) }
    }

    /// Whether the day at `slot` of `daysWithCompletions` contributes to a streak under
    /// `threshold`. Allocates nothing: streak summaries ask this of every day with completions.
    func contributes(slot: Int, threshold: StreakThreshold) -> Bool {
        if inactiveCompletionCount == 0 && threshold.minPercent == nil { return true }
        let day = daysWithCompletions[slot]
        var completed = 0
        for id in completedIDs[slot] where isActive(id, onDayNumber: day) { completed += 1 }
        guard completed > 0 else { return false }
        return threshold.contributes(
            completed: completed,
            active: threshold.minPercent == nil ? completed : activeCount(onDayNumber: day)
        )
    }

    /// The ids of every habit completed on the day number, active or not.
    func allCompletedHabitIDs(onDayNumber day: Int) -> [Int64] {
        slot(ofDayNumber: day).map { completedIDs[$0] } ?? []
    }

    /// The position in `daysWithCompletions` of the first day on or after the day number.
    func firstSlot(onOrAfterDayNumber day: Int) -> Int {
        daysWithCompletions.partitioningIndex { $0 >= day }
    }

    /// The record of `date` under `threshold`, with its due count and rest-day flag.
    public func record(on date: CivilDate, threshold: StreakThreshold = .atLeastOneHabit) -> DayRecord {
        let done = completedHabitIDs(on: date)
        let active = activeCount(on: date)
        var record = DayRecord(
            date: date,
            completedHabitIDs: done,
            due: dueCount(onDayNumber: date.dayNumber, done: done, active: active),
            active: active,
            threshold: threshold
        )
        if !skipTable.isEmpty {
            record.skippedHabitIDs = skippedHabitIDs(on: date)
        }
        return record
    }

    /// The first day with a completion, if any.
    public var firstCompletionDate: CivilDate? { daysWithCompletions.first.flatMap { try? CivilDate(dayNumber: $0) } }

    private func habitIndex(_ id: Int64) -> Int { habits.partitioningIndex { $0.id >= id } }

    /// The position of the day number in `daysWithCompletions`, if it has completions.
    private func slot(ofDayNumber day: Int) -> Int? {
        let slot = daysWithCompletions.partitioningIndex { $0 >= day }
        return slot < daysWithCompletions.count && daysWithCompletions[slot] == day ? slot : nil
    }

    /// The checkpoint of the last streak summary kept (`keepStreakCheckpoint`), while it holds.
    public var streakCheckpoint: StreakCheckpoint? { streakCheckpointSlot.checkpoint }

    /// Keeps a checkpoint that `StreakCalculator.summaryAndCheckpoint` returned for this index as
    /// it is now (not for an earlier or a restricted copy of it): the next summaries start there.
    /// One taken before a later change of the index is ignored, and so is one that reaches less
    /// far than the one kept.
    public mutating func keepStreakCheckpoint(_ checkpoint: StreakCheckpoint) {
        guard daysBefore(checkpoint.boundary) == checkpoint.daysBefore else { return }
        streakCheckpointSlot.keep(checkpoint)
    }

    /// How many days with completions lie before the day number `day`. O(log n).
    func daysBefore(_ day: Int) -> Int {
        daysWithCompletions.partitioningIndex { $0 >= day }
    }

    /// Whether every completion is on a day its habit was active: a day's completed count is then
    /// the number of its ids, with no window to check.
    var everyCompletionIsActive: Bool { inactiveCompletionCount == 0 }

    func isActive(_ id: Int64, onDayNumber day: Int) -> Bool {
        windows[id]?.contains(day) ?? false
    }

    mutating func rebuildWindows() {
        streakCheckpointSlot.noteChangeOfAnyDay()
        let all = habits.map { ($0.id, ActiveWindow($0)) }
        windows = Dictionary(all, uniquingKeysWith: { first, _ in first })
        if habits.allSatisfy(\.schedule.isEveryDay) {
            scheduleSlots = [:]
            scheduleTimeline = []
        } else {
            var seen = Set<Int64>()
            let scheduled = habits.filter { seen.insert($0.id).inserted && !$0.schedule.isEveryDay }
            scheduleSlots = Dictionary(uniqueKeysWithValues: scheduled.enumerated().map { ($1.id, $0) })
            scheduleTimeline = ScheduleEvent.timeline(of: scheduled, slots: scheduleSlots)
        }
        createdDays = all.map(\.1.start).sorted()
        archivedDays = all.compactMap { $0.1.end == .max ? nil : $0.1.end }.sorted()
        inactiveCompletionCount = 0
        // `habits` is sorted by id: a binary search among a user's few habits per completion
        // costs less than hashing each id into `windows` (same answer: the first of an id wins).
        for (day, ids) in zip(daysWithCompletions, completedIDs) {
            for id in ids {
                let position = all.partitioningIndex { $0.0 >= id }
                if !(position < all.count && all[position].0 == id && all[position].1.contains(day)) {
                    inactiveCompletionCount += 1
                }
            }
        }
    }

    private mutating func countInactive(_ habitID: Int64, _ day: Int, by delta: Int) {
        if !isActive(habitID, onDayNumber: day) { inactiveCompletionCount += delta }
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
