public import StreakCore

/// A new habit and the days it was done, for `SQLStore.populate`.
public struct PopulatedHabit: Hashable, Sendable {
    /// The name (the rules of `createHabit`).
    public var name: String
    /// The first day.
    public var createdOn: CivilDate
    /// The days done, none before `createdOn` (any order; a day given twice counts once).
    public var completions: [CivilDate]

    /// Creates a habit.
    public init(name: String, createdOn: CivilDate, completions: [CivilDate]) {
        self.name = name
        self.createdOn = createdOn
        self.completions = completions
    }
}

extension SQLStore {
    /// Gives users new habits with their completions, in one transaction: the bulk form of an
    /// import (`StoreWrite.importData`) of new habits, for filling a store with benchmark users
    /// quickly. Each habit is created as `createHabit` creates it (same ids, same checks); each
    /// habit's completions are inserted with one statement.
    ///
    /// Run it while no server serves these users (a server's cached state would not see the
    /// rows): it writes through a reading connection, as `createUsers` does (`withAdminConnection`).
    /// - Throws: `.invalidArgument` for a bad name or a completion before its habit's first day,
    ///   `.limitReached` for a user who would have more than `HabitLimit.perUser` habits (`item` is
    ///   the index in `users`); nothing of the call is kept after any error.
    public func populate(_ users: [(user: UserID, habits: [PopulatedHabit])]) throws(StorageError) {
        for (index, entry) in users.enumerated() {
            for habit in entry.habits {
                if let problem = HabitName.problem(habit.name) {
                    throw StorageError(.invalidArgument, problem, item: index)
                }
                if let first = habit.completions.min(), first < habit.createdOn {
                    throw StorageError(
                        .invalidArgument,
                        "a completion on \(first) is before the habit's first day \(habit.createdOn)",
                        item: index
                    )
                }
            }
        }
        guard !users.isEmpty else { return }
        try withAdminConnection { connection throws(StorageError) in
            // SQLite: no foreign-key check per completion row; every row's habit is inserted just
            // before it, in the same transaction (the pragma is a no-op inside a transaction).
            guard connection.dialect == .sqlite else { return try Self.populate(users, on: connection) }
            try connection.withPragma("foreign_keys", "OFF", restoring: "ON") { () throws(StorageError) in
                try Self.populate(users, on: connection)
            }
        }.get()
    }

    /// `populate`'s transaction, its users checked.
    private static func populate(
        _ users: [(user: UserID, habits: [PopulatedHabit])],
        on connection: any SQLSession
    ) throws(StorageError) {
        // PostgreSQL, when the role may: no trigger per completion row, neither the foreign-key
        // check nor `completions_clear_skip` (a new habit has no skips to clear).
        let skipsTriggers = connection.dialect == .postgres ? try isSuperuser(connection) : false
        try connection.query(connection.dialect.beginWrite)
        do throws(StorageError) {
            if skipsTriggers { try connection.query("SET LOCAL session_replication_role = replica") }
            let habits = BatchHabits()
            for (index, (user, userHabits)) in users.enumerated() {
                let applier = WriteApplier(connection: connection, user: user, habits: habits)
                // The habit limit, checked once for the user's habits of the call.
                let count = try userHabits.isEmpty ? 0 : applier.habitCount()
                if count + userHabits.count > HabitLimit.perUser {
                    throw StorageError(
                        .limitReached,
                        HabitLimit.reached(count: count, adding: userHabits.count),
                        item: index
                    )
                }
                for item in userHabits {
                    let habit = try applier.insertHabit(name: item.name, createdOn: item.createdOn)
                    try insertCompletions(item.completions, of: habit.id, user: user, into: connection)
                }
                habits.forget(user)
            }
            try connection.query("COMMIT")
        } catch {
            connection.rollBack()
            throw error
        }
    }

    /// Whether the connection's role is a PostgreSQL superuser, the only kind that may turn the
    /// triggers off for a transaction (`session_replication_role`).
    private static func isSuperuser(_ connection: any SQLSession) throws(StorageError) -> Bool {
        try connection.query("SELECT current_setting('is_superuser')").first?.first?.text == "on"
    }

    /// Inserts one habit's completions with one statement (ascending, so that the rows append
    /// to the table's primary key order).
    private static func insertCompletions(
        _ days: [CivilDate],
        of habitID: Int64,
        user: UserID,
        into connection: any SQLSession
    ) throws(StorageError) {
        guard !days.isEmpty else { return }
        let numbers = Set(days.map(\.dayNumber)).sorted().map(Int64.init)
        // The habit is new: none of its rows exist, so nothing can conflict.
        let sql =
            connection.dialect == .postgres
            ? "INSERT INTO completions (user_id, habit_id, day) SELECT ?, ?, unnest(?::integer[])"
            : "INSERT INTO completions (user_id, habit_id, day) SELECT ?, ?, value FROM json_each(?)"
        let list =
            connection.dialect == .postgres
            ? SQLValue.integerArray(numbers) : .text(jsonArray(numbers))
        try connection.query(
            sql,
            [.integer(user), .integer(habitID), list]
        )
    }

    /// `[1,2,3]`, written digit by digit (joining a string per number cost a tenth of a bulk load).
    private static func jsonArray(_ numbers: [Int64]) -> String {
        var bytes: [UInt8] = [UInt8(ascii: "[")]
        bytes.reserveCapacity(numbers.count * 7 + 2)
        var digits: [UInt8] = []
        for (index, number) in numbers.enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            if number < 0 { bytes.append(UInt8(ascii: "-")) }
            var rest = number.magnitude
            digits.removeAll(keepingCapacity: true)
            repeat {
                digits.append(UInt8(ascii: "0") + UInt8(rest % 10))
                rest /= 10
            } while rest > 0
            bytes.append(contentsOf: digits.reversed())
        }
        bytes.append(UInt8(ascii: "]"))
        return String(decoding: bytes, as: UTF8.self)
    }
}
