import StreakCore

/// The habits a group commit's writes have read or written, by user and id, so that a batch asks
/// the database once per habit rather than once per write (on PostgreSQL each ask is a round
/// trip; a batch's habits are also fetched together first, with its BEGIN: `prefetch`).
///
/// Only valid inside its batch's transaction: the writer is the only one changing habits of the
/// users it serves, and a write that fails forgets its user's entries (`forget`). On SQLite, where
/// this process's writer is the only one, the writer keeps it from one batch to the next and
/// empties it whenever a transaction rolls back (`removeAll`).
final class BatchHabits {
    /// What is known of a habit id for a user.
    enum Entry {
        /// The user's habit, as it is now in the transaction.
        case habit(Habit)
        /// The user has no habit with the id.
        case missing
    }

    private var known: [UserID: [Int64: Entry]] = [:]
    /// How the batch's habit queries lock the rows they read (`SQLDialect.lockHabits`), chosen by
    /// `prefetch`; a habit read later in the batch is locked the same way, never more strongly
    /// than the others (an upgrade could deadlock with another server).
    private(set) var lockClause = ""

    /// What is known of the user's habit `id`, or nil when it was not asked yet.
    func lookup(_ id: Int64, of user: UserID) -> Entry? {
        known[user].flatMap { $0[id] }
    }

    func remember(_ habit: Habit, of user: UserID) {
        known[user, default: [:]][habit.id] = .habit(habit)
    }

    func rememberMissing(_ id: Int64, of user: UserID) {
        known[user, default: [:]][id] = .missing
    }

    /// Drops what is known of the user's habits (after a write of theirs failed: it may have been undone).
    func forget(_ user: UserID) {
        known[user] = nil
    }

    /// Drops everything (a transaction rolled back).
    func removeAll() {
        known.removeAll()
    }

    /// The users with entries.
    var userCount: Int { known.count }

    /// The query that reads every habit the batch's writes name and that is not known yet (nil
    /// when there is none), to run with the transaction's BEGIN in one flight; `absorb` takes its
    /// rows. On PostgreSQL the rows are locked until the commit, in one order, shared when the
    /// batch changes no habit (`SQLDialect.lockHabits`).
    func prefetch(for batch: [PendingWrite], dialect: SQLDialect) -> Prefetch? {
        lockClause = dialect.lockHabits(shared: !batch.contains { $0.write.changesHabits })
        var wanted: [UserID: Set<Int64>] = [:]
        for pending in batch {
            for id in pending.write.habitIDs where lookup(id, of: pending.user) == nil {
                wanted[pending.user, default: []].insert(id)
            }
        }
        let ids = Set(wanted.values.joined())
        guard !ids.isEmpty else { return nil }
        // Both arrays: the users lead the primary key (and let Citus route to their shards).
        let statement = SQLStatement(
            """
            SELECT id, name, created_on, archived_on, user_id FROM habits
            WHERE user_id = ANY(?::bigint[]) AND id = ANY(?::bigint[])
            ORDER BY user_id, id\(lockClause)
            """,
            [.integerArray(wanted.keys.sorted()), .integerArray(ids.sorted())]
        )
        return Prefetch(statement: statement, wanted: wanted)
    }

    /// Remembers what a prefetch's rows say: the habits found, and the wanted ids that no user of
    /// the batch has as missing.
    func absorb(_ prefetch: Prefetch, rows: [[SQLValue]]) throws(StorageError) {
        var found: [UserID: [Int64: Habit]] = [:]
        for row in rows {
            found[row[4].integer ?? 0, default: [:]][row[0].integer ?? 0] = try HabitRow.habit(from: row)
        }
        for (user, ids) in prefetch.wanted {
            for id in ids {
                if let habit = found[user]?[id] { remember(habit, of: user) } else { rememberMissing(id, of: user) }
            }
        }
    }

    /// A batch's habit query and the ids it asks for, by user.
    struct Prefetch {
        let statement: SQLStatement
        let wanted: [UserID: Set<Int64>]
    }
}

extension StoreWrite {
    /// Whether the write changes existing habits (their rows, schedules, or everything of them):
    /// its batch locks the habits it names exclusively.
    var changesHabits: Bool {
        switch self {
        case .renameHabit, .archiveHabit, .unarchiveHabit, .deleteHabit, .setSchedule, .importData: true
        case .createHabit, .completions, .updateSettings, .changeSettings, .addRestPeriod, .removeRestPeriod: false
        }
    }

    /// The ids of the existing habits the write names.
    var habitIDs: [Int64] {
        switch self {
        case .renameHabit(let id, _), .archiveHabit(let id, _), .setSchedule(let id, _, _), .deleteHabit(let id),
            .unarchiveHabit(let id):
            [id]
        case .completions(let changes): changes.map(\.habitID)
        case .createHabit, .updateSettings, .changeSettings, .addRestPeriod, .removeRestPeriod, .importData: []
        }
    }
}
