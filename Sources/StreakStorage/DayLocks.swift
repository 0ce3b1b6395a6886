/// The locks a PostgreSQL write transaction takes before it reads or writes anything, held until
/// its commit, in one statement in the flight of BEGIN (no round trip of their own):
///
/// - On each (habit, day) whose completion or skip it changes, so that two servers' writes of one
///   habit and day happen one after the other (a completion committed on one server and a skip of
///   the same day on another could otherwise both stay: neither transaction's statement sees the
///   other's uncommitted row). Keyed by the habit id (modulo 2^31 - 1: a collision only makes two
///   days wait for each other) and the day number.
/// - On each user it imports data for, creates a habit for or adds a rest period for, so that two
///   servers' imports, creations and additions for one user happen one after the other: an import
///   matches habits by name and rest periods by their days and note, and two at once would each
///   find nothing and both create; and the counts of the user's habits and rest periods each
///   checks against `HabitLimit` and `RestPeriodLimit` inside its transaction are exact (read
///   committed: a statement after the lock sees what the other committed before releasing it). Keyed by -1 (no habit key is negative) and the user id (modulo 2^31 - 1). A
///   batch without either takes none: single records pay nothing.
///
/// Transaction-level advisory locks in the two-integer key space (apart from the migration's
/// single-key lock), taken in ascending order (the imports' first), before the habit rows
/// (`BatchHabits.prefetch`): every write transaction takes its locks in the same order, so none
/// waits for another in a cycle.
enum DayLocks {
    /// The statement that takes the locks of the batch's completion changes, imports, habit
    /// creations and rest-period additions, nil when it has none.
    static func statement(for batch: [PendingWrite]) -> SQLStatement? {
        var keys: Set<Key> = []
        for pending in batch {
            switch pending.write {
            case .completions(let changes):
                for change in changes {
                    keys.insert(
                        Key(
                            first: Int32(change.habitID % Int64(Int32.max)),
                            second: Int32(clamping: change.date.dayNumber)
                        )
                    )
                }
            case .createHabit, .addRestPeriod, .importData:
                keys.insert(Key(first: -1, second: Int32(pending.user % UserID(Int32.max))))
            default:
                continue
            }
        }
        guard !keys.isEmpty else { return nil }
        let sorted = keys.sorted { ($0.first, $0.second) < ($1.first, $1.second) }
        return SQLStatement(
            "SELECT count(pg_advisory_xact_lock(h, d)) FROM unnest(?::integer[], ?::integer[]) AS k (h, d)",
            [.integerArray(sorted.map { Int64($0.first) }), .integerArray(sorted.map { Int64($0.second) })]
        )
    }

    /// A lock's two keys: a habit and a day, or -1 and a user.
    private struct Key: Hashable {
        let first: Int32
        let second: Int32
    }
}
