import Dispatch
import FoundationEssentials
import StreakCore
import Synchronization

/// What the SQLite and the PostgreSQL stores share: the queries, written once in the SQL both
/// engines speak, the reading connections, each behind its own lock, and the group-commit writer.
///
/// Reads are rare (the server caches a user's state after the first load): a few reading
/// connections (one per core on SQLite, one on PostgreSQL, which also has one for following other
/// servers) serve them, each one read at a time. A user's writes (`submit`) go to the single
/// writer thread, which drains every queued submission into one transaction and answers them all
/// after one durable COMMIT.
///
/// The administrative writes (`createUser`, `createUsers`, `revokeUser`, `issueToken`, and
/// `populate`) run on a reading connection instead (`withAdminConnection`): they are rare, change
/// the users table (which no submitted write changes) or users no server serves yet, and need
/// their own transaction or check-then-insert; group commit would save them nothing. Each commits
/// as durably as the writer's (SQLite: WAL with `synchronous = FULL` on every connection;
/// PostgreSQL: a COMMIT) before it returns; on SQLite it waits for the write lock between the
/// writer's transactions (the busy timeout).
public class SQLStore: StreakStore, @unchecked Sendable {
    /// The reading connections, each behind its own lock (`ReaderSlot`): loads of different
    /// users read at once where the store has several (SQLite), instead of queueing behind one.
    private let readers: [ReaderSlot]
    /// Where the next read starts looking for a free connection.
    private let nextReader = Atomic<Int>(0)
    /// Serialises the use of `followerReader`; true once closed.
    private let followerClosed = Mutex(false)
    /// The connection that `dayRows` and `habitsAndSettings` read through, when the store has a
    /// second one (PostgreSQL); else they share `reader`.
    private let followerReader: (any SQLSession)?
    private let writer: GroupCommitWriter

    init(
        reader: any SQLSession,
        moreReaders: [any SQLSession] = [],
        followerReader: (any SQLSession)? = nil,
        writer: GroupCommitWriter
    ) {
        readers = ([reader] + moreReaders).map(ReaderSlot.init)
        self.followerReader = followerReader
        self.writer = writer
    }

    public func onBatchAcknowledged(_ hook: @escaping @Sendable () -> Void) {
        writer.onBatchAcknowledged(hook)
    }

    /// Transactions committed by the writer so far (group commit makes this smaller than the writes).
    public var committedTransactions: Int { writer.committedTransactions }

    public func createUser(name: String) throws(StorageError) -> (user: UserRecord, token: String) {
        guard UserName.isValid(name) else { throw StorageError(.invalidArgument, UserName.rule) }
        let token = TokenHasher.generate()
        let created = Date()
        let result: Result<UserID, StorageError> = withAdminConnection { connection throws(StorageError) in
            guard try connection.query("SELECT id FROM users WHERE name = ?", [.text(name)]).isEmpty else {
                throw StorageError(.alreadyExists, "a user with that name already exists")
            }
            try connection.query(
                "INSERT INTO users (name, token_hash, created_at) VALUES (?, ?, ?)",
                [.text(name), .blob(TokenHasher.hash(token)), .integer(Int64(created.timeIntervalSince1970))]
            )
            let rows = try connection.query("SELECT id FROM users WHERE name = ?", [.text(name)])
            guard let id = rows.first?.first?.integer
            else { throw StorageError(.corrupt, "the new user was not found") }
            return id
        }
        let id = try result.get()
        let createdAt = Date(timeIntervalSince1970: created.timeIntervalSince1970.rounded(.down))
        return (UserRecord(id: id, name: name, createdAt: createdAt, revoked: false), token)
    }

    public func createUsers(names: [String]) throws(StorageError) -> [(user: UserRecord, token: String)] {
        var seen = Set<String>()
        seen.reserveCapacity(names.count)
        for (index, name) in names.enumerated() {
            guard UserName.isValid(name) else { throw StorageError(.invalidArgument, UserName.rule, item: index) }
            guard seen.insert(name).inserted else {
                throw StorageError(.alreadyExists, "the same user name is given twice", item: index)
            }
        }
        guard !names.isEmpty else { return [] }
        // Tokens and their hashes before the transaction, which holds the write lock.
        let tokens = names.map { _ in TokenHasher.generate() }
        let batch = UserBatch(names: names, hashes: tokens.map(TokenHasher.hash), createdAt: Date())
        let ids = try withAdminConnection { connection throws(StorageError) in try batch.insert(into: connection) }
            .get()
        return names.indices.map { index in
            (UserRecord(id: ids[index], name: names[index], createdAt: batch.createdAt, revoked: false), tokens[index])
        }
    }

    public func users() throws(StorageError) -> [UserRecord] {
        try withReader { connection throws(StorageError) in
            try connection.query("SELECT id, name, created_at, revoked FROM users ORDER BY id").map { row in
                UserRecord(
                    id: row[0].integer ?? 0,
                    name: row[1].text ?? "",
                    createdAt: Date(timeIntervalSince1970: Double(row[2].integer ?? 0)),
                    revoked: row[3].integer == 1
                )
            }
        }.get()
    }

    @discardableResult
    public func revokeUser(name: String) throws(StorageError) -> Bool {
        try withAdminConnection { connection throws(StorageError) -> Bool in
            try connection.query(
                "UPDATE users SET revoked = 1, token_hash = NULL WHERE name = ? AND revoked = 0",
                [.text(name)]
            )
            if connection.changes == 1 { return true }
            guard try !connection.query("SELECT 1 FROM users WHERE name = ?", [.text(name)]).isEmpty else {
                throw StorageError(.notFound, "no user with that name")
            }
            return false
        }.get()
    }

    public func issueToken(name: String) throws(StorageError) -> String {
        let token = TokenHasher.generate()
        try withAdminConnection { connection throws(StorageError) in
            try connection.query(
                "UPDATE users SET token_hash = ? WHERE name = ? AND revoked = 0",
                [.blob(TokenHasher.hash(token)), .text(name)]
            )
            guard connection.changes == 1 else { throw StorageError(.notFound, "no active user with that name") }
        }.get()
        return token
    }

    public func authenticate(token: String) throws(StorageError) -> UserID? {
        guard TokenHasher.isWellFormed(token) else { return nil }
        let digest = TokenHasher.hash(token)
        return try withReader { connection throws(StorageError) -> UserID? in
            let rows = try connection.query(
                "SELECT id, token_hash FROM users WHERE token_hash = ? AND revoked = 0",
                [.blob(digest)]
            )
            guard let row = rows.first, let stored = row[1].blob, TokenHasher.equal(stored, digest) else { return nil }
            return row[0].integer
        }.get()
    }

    public func habits(of user: UserID) throws(StorageError) -> [Habit] {
        try withReader { connection throws(StorageError) in
            let habits = try connection.query(
                "SELECT id, name, created_on, archived_on FROM habits WHERE user_id = ? ORDER BY id",
                [.integer(user)]
            ).map { row throws(StorageError) in try HabitRow.habit(from: row) }
            return ScheduleRow.attach(try ScheduleRow.load(user: user, from: connection), to: habits)
        }.get()
    }

    public func skips(of user: UserID) throws(StorageError) -> [Skip] {
        try withReader { connection throws(StorageError) in
            try connection.query("SELECT habit_id, day FROM skips WHERE user_id = ?", [.integer(user)]).map {
                row throws(StorageError) in
                Skip(habitID: row[0].integer ?? 0, date: try HabitRow.date(row[1]))
            }
        }.get()
    }

    public func restPeriods(of user: UserID) throws(StorageError) -> [RestPeriodRecord] {
        try withReader { connection throws(StorageError) in
            try connection.query(
                "SELECT id, from_day, to_day, note FROM rest_periods WHERE user_id = ? ORDER BY from_day, id",
                [.integer(user)]
            ).map { row throws(StorageError) in try ScheduleRow.restPeriod(from: row) }
        }.get()
    }

    public func completions(of user: UserID) throws(StorageError) -> [Completion] {
        try withReader { connection throws(StorageError) in
            try connection.query("SELECT habit_id, day FROM completions WHERE user_id = ?", [.integer(user)]).map {
                row throws(StorageError) in
                Completion(habitID: row[0].integer ?? 0, date: try HabitRow.date(row[1]))
            }
        }.get()
    }

    public func settings(of user: UserID) throws(StorageError) -> UserSettings {
        try withReader { connection throws(StorageError) in try SettingsRow.load(user: user, from: connection) }.get()
    }

    public func dayRows(of user: UserID, on days: [CivilDate]) throws(StorageError) -> DayRows {
        guard !days.isEmpty else { return DayRows(completions: [], skips: []) }
        return try withFollowerReader { connection throws(StorageError) in
            let numbers = days.map { Int64($0.dayNumber) }
            let list: SQLValue =
                connection.dialect == .postgres
                ? .integerArray(numbers) : .text("[" + numbers.map(String.init).joined(separator: ",") + "]")
            let condition =
                connection.dialect == .postgres ? "day = ANY(?::integer[])" : "day IN (SELECT value FROM json_each(?))"
            // One statement, so one snapshot of both tables. Through the user's habits, so that
            // PostgreSQL probes the primary key (user, habit, day) instead of scanning the user's rows.
            let rows = try connection.query(
                """
                SELECT 0, c.habit_id, c.day FROM habits h JOIN completions c
                    ON c.user_id = h.user_id AND c.habit_id = h.id AND c.\(condition) WHERE h.user_id = ?
                UNION ALL
                SELECT 1, s.habit_id, s.day FROM habits h JOIN skips s
                    ON s.user_id = h.user_id AND s.habit_id = h.id AND s.\(condition) WHERE h.user_id = ?
                """,
                [list, .integer(user), list, .integer(user)]
            )
            return try Self.dayRows(rows)
        }.get()
    }

    public func habitDays(_ keys: [HabitDay]) throws(StorageError) -> (done: [HabitDay], skipped: [HabitDay]) {
        guard !keys.isEmpty else { return ([], []) }
        let postgres = try withFollowerReader { connection throws(StorageError) in connection.dialect == .postgres }
            .get()
        guard postgres else {
            // SQLite (no other server writes it): the days of each user, kept to the keys.
            var done: [HabitDay] = []
            var skipped: [HabitDay] = []
            for (user, userKeys) in Dictionary(grouping: keys, by: \.user) {
                let wanted = Set(userKeys)
                let rows = try dayRows(of: user, on: Array(Set(userKeys.map(\.date))))
                done += rows.completions.map { HabitDay(user: user, habitID: $0.habitID, date: $0.date) }.filter(
                    wanted.contains
                )
                skipped += rows.skips.map { HabitDay(user: user, habitID: $0.habitID, date: $0.date) }.filter(
                    wanted.contains
                )
            }
            return (done, skipped)
        }
        return try withFollowerReader { connection throws(StorageError) in
            let users = SQLValue.integerArray(keys.map(\.user))
            let habits = SQLValue.integerArray(keys.map(\.habitID))
            let days = SQLValue.integerArray(keys.map { Int64($0.date.dayNumber) })
            // Exact primary-key lookups, one per key, for completions and skips in one snapshot.
            let rows = try connection.query(
                """
                SELECT 0, w.u, w.h, w.d FROM unnest(?::bigint[], ?::bigint[], ?::integer[]) AS w(u, h, d)
                    JOIN completions c ON c.user_id = w.u AND c.habit_id = w.h AND c.day = w.d
                UNION ALL
                SELECT 1, w.u, w.h, w.d FROM unnest(?::bigint[], ?::bigint[], ?::integer[]) AS w(u, h, d)
                    JOIN skips s ON s.user_id = w.u AND s.habit_id = w.h AND s.day = w.d
                """,
                [users, habits, days, users, habits, days]
            )
            var done: [HabitDay] = []
            var skipped: [HabitDay] = []
            for row in rows {
                let key = HabitDay(
                    user: row[1].integer ?? 0,
                    habitID: row[2].integer ?? 0,
                    date: try HabitRow.date(row[3])
                )
                if row[0].integer == 0 { done.append(key) } else { skipped.append(key) }
            }
            return (done, skipped)
        }.get()
    }

    public func allDayRows(of user: UserID) throws(StorageError) -> DayRows {
        try withFollowerReader { connection throws(StorageError) in
            let rows = try connection.query(
                """
                SELECT 0, habit_id, day FROM completions WHERE user_id = ?
                UNION ALL
                SELECT 1, habit_id, day FROM skips WHERE user_id = ?
                """,
                [.integer(user), .integer(user)]
            )
            return try Self.dayRows(rows)
        }.get()
    }

    public func habitsAndSettings(of user: UserID) throws(StorageError) -> HabitsAndSettings {
        try withFollowerReader { connection throws(StorageError) in
            let habits = try connection.query(
                "SELECT id, name, created_on, archived_on FROM habits WHERE user_id = ? ORDER BY id",
                [.integer(user)]
            ).map { row throws(StorageError) in try HabitRow.habit(from: row) }
            let restPeriods = try connection.query(
                "SELECT id, from_day, to_day, note FROM rest_periods WHERE user_id = ? ORDER BY from_day, id",
                [.integer(user)]
            ).map { row throws(StorageError) in try ScheduleRow.restPeriod(from: row) }
            return HabitsAndSettings(
                habits: ScheduleRow.attach(try ScheduleRow.load(user: user, from: connection), to: habits),
                restPeriods: restPeriods,
                settings: try SettingsRow.load(user: user, from: connection)
            )
        }.get()
    }

    /// Rows of (0 for a completion or 1 for a skip, habit id, day number).
    private static func dayRows(_ rows: [[SQLValue]]) throws(StorageError) -> DayRows {
        var result = DayRows(completions: [], skips: [])
        for row in rows {
            let habitID = row[1].integer ?? 0
            let date = try HabitRow.date(row[2])
            if row[0].integer == 0 {
                result.completions.append(Completion(habitID: habitID, date: date))
            } else {
                result.skips.append(Skip(habitID: habitID, date: date))
            }
        }
        return result
    }

    public func submit(
        _ write: StoreWrite,
        for user: UserID,
        completion: @escaping @Sendable (Result<StoreWriteResult, StorageError>) -> Void
    ) {
        writer.enqueue(PendingWrite(write: write, user: user, completion: completion))
    }

    /// Finishes every queued write and delivers its completion, then closes the connections
    /// (`closeConnections`). Later calls fail with `.closed`. Safe to call more than once.
    public func close() {
        writer.stop()
        writerStopped()
        followerClosed.withLock { closed in
            closeReaders(from: 0) {
                closed = true
                closeConnections()
            }
        }
    }

    /// Marks every reader slot from `index` on closed, holding each slot's lock, then runs `body`
    /// with all of them held (once, unless the store was already closed).
    private func closeReaders(from index: Int, _ body: () -> Void) {
        guard index < readers.count else { return body() }
        readers[index].closed.withLock { closed in
            guard !closed else { return }
            closed = true
            closeReaders(from: index + 1, body)
        }
    }

    /// No other server writes this store (overridden by the shared PostgreSQL store).
    public func onExternalChange(_ handler: @escaping @Sendable (ExternalChange) -> Void) {}

    /// Nothing to report here: each store overrides it (SQLite's checkpoints, PostgreSQL's change log).
    public func onUpkeepReport(_ handler: @escaping @Sendable (StoreUpkeepReport) -> Void) {}

    /// Called by `close` once the writer has ended, before the reader is locked.
    func writerStopped() {}

    /// Called once by `close`, with the reader locked, after the writer has ended.
    func closeConnections() {}

    /// Runs `body` on the follower's connection, or on the reader when there is none.
    private func withFollowerReader<T: Sendable>(
        _ body: (any SQLSession) throws(StorageError) -> T
    ) -> Result<T, StorageError> {
        guard let followerReader else { return withReader(body) }
        return followerClosed.withLock { closed -> Result<T, StorageError> in
            guard !closed else { return .failure(StorageError.storeClosed) }
            do throws(StorageError) {
                return .success(try body(followerReader))
            } catch {
                return .failure(error)
            }
        }
    }

    /// Runs `body`, which writes outside group commit, on a reading connection (`withReader`):
    /// the administrative writes (see the type's comment).
    func withAdminConnection<T: Sendable>(
        _ body: (any SQLSession) throws(StorageError) -> T
    ) -> Result<T, StorageError> {
        withReader(body)
    }

    /// Runs `body` on a free reading connection (waiting for one when all are busy); the reading
    /// connections also run the administrative writes (`withAdminConnection`).
    func withReader<T: Sendable>(
        _ body: (any SQLSession) throws(StorageError) -> T
    ) -> Result<T, StorageError> {
        func run(_ slot: ReaderSlot, _ closed: inout Bool) -> Result<T, StorageError> {
            guard !closed else { return .failure(StorageError.storeClosed) }
            do throws(StorageError) {
                return .success(try body(slot.session))
            } catch {
                return .failure(error)
            }
        }
        let start = nextReader.wrappingAdd(1, ordering: .relaxed).oldValue & Int.max
        if readers.count > 1 {
            for offset in 0..<readers.count {
                let slot = readers[(start + offset) % readers.count]
                if let result = slot.closed.withLockIfAvailable({ run(slot, &$0) }) { return result }
            }
        }
        let slot = readers[start % readers.count]
        return slot.closed.withLock { run(slot, &$0) }
    }
}

/// One reading connection and whether the store was closed; holding the lock serialises the use
/// of the connection.
final class ReaderSlot: @unchecked Sendable {
    let closed = Mutex(false)
    let session: any SQLSession

    init(_ session: any SQLSession) { self.session = session }
}
