/// The lock a PostgreSQL write transaction takes on each (habit, day) whose completion or skip it
/// changes, held until its commit, so that two servers' writes of one habit and day happen one
/// after the other (a completion committed on one server and a skip of the same day on another
/// could otherwise both stay: neither transaction's statement sees the other's uncommitted row).
///
/// Transaction-level advisory locks, keyed by the habit id (modulo 2^31 - 1: a collision only
/// makes two days wait for each other) and the day number, taken in one statement in ascending
/// order, before the habit rows (`BatchHabits.prefetch`): every write transaction takes its locks
/// in the same order, so none waits for another in a cycle. The key space is the two-integer one,
/// apart from the migration's single-key lock.
///
/// A write that may create habits (CreateHabit, ImportData) also takes its user's habit lock, key
/// (-1, user id modulo 2^31 - 1), first of all (no day lock's key is negative): two servers'
/// creations for one user happen one after the other, so the count of the user's habits that each
/// checks against `HabitLimit` inside its transaction is exact (read committed: a statement after
/// the lock sees what the other committed before releasing it).
enum DayLocks {
    /// The statement that takes the locks of the batch's completion changes and habit creations,
    /// nil when it has none.
    static func statement(for batch: [PendingWrite]) -> SQLStatement? {
        var keys: Set<Key> = []
        for pending in batch {
            switch pending.write {
            case .completions(let changes):
                for change in changes {
                    keys.insert(
                        Key(
                            habit: Int32(change.habitID % Int64(Int32.max)),
                            day: Int32(clamping: change.date.dayNumber)
                        )
                    )
                }
            case .createHabit, .importData:
                keys.insert(Key(habit: -1, day: Int32(pending.user % Int64(Int32.max))))
            default:
                continue
            }
        }
        guard !keys.isEmpty else { return nil }
        let sorted = keys.sorted { ($0.habit, $0.day) < ($1.habit, $1.day) }
        return SQLStatement(
            "SELECT count(pg_advisory_xact_lock(h, d)) FROM unnest(?::integer[], ?::integer[]) AS k (h, d)",
            [.integerArray(sorted.map { Int64($0.habit) }), .integerArray(sorted.map { Int64($0.day) })]
        )
    }

    private struct Key: Hashable {
        let habit: Int32
        let day: Int32
    }
}
