import StreakCore

/// The single-completion records of a group commit, checked in their place in the batch and
/// inserted together by one statement before COMMIT (PostgreSQL: one round trip instead of one
/// per write).
///
/// Only a record whose (user, habit, day) no other completion write of the batch names is
/// deferred: nothing else in the batch reads or changes that row, so inserting it last changes
/// no result. The others run in order as usual.
struct BulkRecords {
    struct Key: Hashable {
        let user: UserID
        let habitID: Int64
        let day: Int
    }

    /// Indexes in the batch of the writes deferred here, with their keys.
    private(set) var deferred: [(index: Int, key: Key)] = []
    private let eligible: Set<Int>

    /// Chooses the writes of `batch` that can be deferred.
    init(_ batch: [PendingWrite]) {
        var uses: [Key: Int] = [:]
        var singles: [(Int, Key)] = []
        for (index, pending) in batch.enumerated() {
            guard case .completions(let changes) = pending.write else { continue }
            for change in changes {
                uses[Key(user: pending.user, habitID: change.habitID, day: change.date.dayNumber), default: 0] += 1
            }
            if changes.count == 1, case .record(let habitID, let date) = changes[0] {
                singles.append((index, Key(user: pending.user, habitID: habitID, day: date.dayNumber)))
            }
        }
        eligible = Set(singles.filter { uses[$0.1] == 1 }.map(\.0))
    }

    /// Whether the write at `index` is deferred here (after its checks passed: `defer`).
    func isEligible(_ index: Int) -> Bool { eligible.contains(index) }

    mutating func append(index: Int, key: Key) {
        deferred.append((index, key))
    }

    /// Inserts every deferred record; returns, by batch index, whether each was new.
    func insert(into connection: any SQLSession) throws(StorageError) -> [Int: Bool] {
        guard !deferred.isEmpty else { return [:] }
        let rows = try connection.query(
            """
            INSERT INTO completions (user_id, habit_id, day)
            SELECT * FROM unnest(?::bigint[], ?::bigint[], ?::integer[])
            ON CONFLICT DO NOTHING RETURNING user_id, habit_id, day
            """,
            [
                .integerArray(deferred.map(\.key.user)), .integerArray(deferred.map(\.key.habitID)),
                .integerArray(deferred.map { Int64($0.key.day) }),
            ]
        )
        let inserted = Set(
            rows.map { Key(user: $0[0].integer ?? 0, habitID: $0[1].integer ?? 0, day: Int($0[2].integer ?? 0)) }
        )
        return Dictionary(uniqueKeysWithValues: deferred.map { ($0.index, inserted.contains($0.key)) })
    }
}
