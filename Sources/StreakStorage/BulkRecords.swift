import StreakCore

/// The single-completion records and removals of a group commit, checked in their place in the
/// batch and applied together, one statement for the records and one for the removals, in the
/// flight that ends with COMMIT (PostgreSQL: no round trip of their own).
///
/// Only a write whose (user, habit, day) no other completion write of the batch names is
/// deferred, and only for a user with no habit deletion or import in the batch (those read and
/// change every completion of a habit): nothing else in the batch reads or changes that row, so
/// applying it last changes no result. The others run in order as usual.
struct BulkRecords {
    struct Key: Hashable {
        let user: UserID
        let habitID: Int64
        let day: Int
    }

    /// Indexes in the batch of the records deferred here, with their keys.
    private(set) var records: [(index: Int, key: Key)] = []
    /// Indexes in the batch of the removals deferred here, with their keys.
    private(set) var removals: [(index: Int, key: Key)] = []
    private let eligible: Set<Int>

    /// Chooses the writes of `batch` that can be deferred.
    init(_ batch: [PendingWrite]) {
        var uses: [Key: Int] = [:]
        var singles: [(Int, Key)] = []
        var excluded: Set<UserID> = []
        for (index, pending) in batch.enumerated() {
            switch pending.write {
            case .deleteHabit, .importData: excluded.insert(pending.user)
            default: break
            }
            guard case .completions(let changes) = pending.write else { continue }
            for change in changes {
                uses[Key(user: pending.user, habitID: change.habitID, day: change.date.dayNumber), default: 0] += 1
            }
            guard changes.count == 1 else { continue }
            switch changes[0] {
            case .record(let habitID, let date), .remove(let habitID, let date):
                singles.append((index, Key(user: pending.user, habitID: habitID, day: date.dayNumber)))
            case .skip, .unskip:
                break
            }
        }
        eligible = Set(singles.filter { uses[$0.1] == 1 && !excluded.contains($0.1.user) }.map(\.0))
    }

    /// Whether the write at `index` is deferred here (after its checks passed: `append`).
    func isEligible(_ index: Int) -> Bool { eligible.contains(index) }

    /// Defers the eligible write at `index`, a single record or removal.
    mutating func append(index: Int, change: CompletionChange, user: UserID) {
        let key = Key(user: user, habitID: change.habitID, day: change.date.dayNumber)
        if case .remove = change { removals.append((index, key)) } else { records.append((index, key)) }
    }

    /// The statements that apply the deferred writes (none, one or two), each returning the keys
    /// it changed; `changed(by:)` reads their rows.
    var statements: [SQLStatement] {
        var statements: [SQLStatement] = []
        if !records.isEmpty {
            statements.append(
                SQLStatement(
                    """
                    INSERT INTO completions (user_id, habit_id, day)
                    SELECT * FROM unnest(?::bigint[], ?::bigint[], ?::integer[])
                    ON CONFLICT DO NOTHING RETURNING user_id, habit_id, day
                    """,
                    Self.arrays(records)
                )
            )
        }
        if !removals.isEmpty {
            statements.append(
                SQLStatement(
                    """
                    DELETE FROM completions AS c
                    USING unnest(?::bigint[], ?::bigint[], ?::integer[]) AS k (user_id, habit_id, day)
                    WHERE c.user_id = k.user_id AND c.habit_id = k.habit_id AND c.day = k.day
                    RETURNING c.user_id, c.habit_id, c.day
                    """,
                    Self.arrays(removals)
                )
            )
        }
        return statements
    }

    /// By batch index, whether each deferred write changed its row, from the rows that
    /// `statements` returned (in their order).
    func changed(by rows: [[[SQLValue]]]) -> [Int: Bool] {
        var result: [Int: Bool] = [:]
        var next = 0
        for deferred in [records, removals] where !deferred.isEmpty {
            let keys = Set(
                rows[next].map {
                    Key(user: $0[0].integer ?? 0, habitID: $0[1].integer ?? 0, day: Int($0[2].integer ?? 0))
                }
            )
            for (index, key) in deferred { result[index] = keys.contains(key) }
            next += 1
        }
        return result
    }

    private static func arrays(_ deferred: [(index: Int, key: Key)]) -> [SQLValue] {
        [
            .integerArray(deferred.map(\.key.user)), .integerArray(deferred.map(\.key.habitID)),
            .integerArray(deferred.map { Int64($0.key.day) }),
        ]
    }
}
