/// (habit id, day) pairs ordered by habit id, then day: a compact copy of a `CompletionIndex`'s
/// completions or skips that stays as it was while the index changes (an export walks one).
///
/// 4 bytes a pair (the day number as `Int32`) and 16 a habit, where the pairs as `Completion`
/// values take 32. Built in time linear in the pairs; reading a pair costs a binary search over
/// the habits.
public struct HabitDayList: RandomAccessCollection, Sendable {
    /// The habits that have a pair, ascending.
    private let habitIDs: [Int64]
    /// Where each habit's days end in `dayNumbers` (same position as `habitIDs`).
    private let ends: [Int]
    /// The days of every habit, habit after habit, each habit's ascending.
    private let dayNumbers: [Int32]

    /// The list of pairs held day by day: `ids[i]` are the habits (ascending, each once) on day
    /// number `days[i]`, the days ascending.
    init(days: [Int], ids: [[Int64]]) {
        // Each habit's count, then where its days start: one pass to count, one to place.
        var next: [Int64: Int] = [:]
        for dayIDs in ids {
            for id in dayIDs { next[id, default: 0] += 1 }
        }
        habitIDs = next.keys.sorted()
        var ends: [Int] = []
        ends.reserveCapacity(habitIDs.count)
        var start = 0
        for id in habitIDs {
            let count = next[id] ?? 0
            next[id] = start
            start += count
            ends.append(start)
        }
        self.ends = ends
        var dayNumbers = [Int32](repeating: 0, count: start)
        for (day, dayIDs) in zip(days, ids) {
            for id in dayIDs {
                guard let position = next[id] else { continue }
                dayNumbers[position] = Int32(truncatingIfNeeded: day)
                next[id] = position + 1
            }
        }
        self.dayNumbers = dayNumbers
    }

    /// The first position.
    public var startIndex: Int { 0 }
    /// The position after the last pair.
    public var endIndex: Int { dayNumbers.count }

    /// The pair at `position`.
    public subscript(position: Int) -> (habitID: Int64, date: CivilDate) {
        let habit = ends.partitioningIndex { $0 > position }
        return (habitIDs[habit], CivilDate(validDayNumber: Int(dayNumbers[position])))
    }
}

extension CompletionIndex {
    /// The completions by habit id, then day, in a compact copy (see `HabitDayList`).
    public var completionsByHabit: HabitDayList { HabitDayList(days: daysWithCompletions, ids: completedIDs) }

    /// The skips by habit id, then day, in a compact copy (see `HabitDayList`).
    public var skipsByHabit: HabitDayList { HabitDayList(days: skipTable.days, ids: skipTable.ids) }
}
