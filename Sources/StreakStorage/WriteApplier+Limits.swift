import StreakCore

extension WriteApplier {
    /// How many rest periods the user has (`RestPeriodLimit`). Exact inside the write
    /// transaction: SQLite has one writer, and on PostgreSQL every write that may add a rest
    /// period (AddRestPeriod, ImportData) holds the user's lock (`DayLocks`) until its commit, so
    /// another server's additions for this user are committed, and counted here, before the lock
    /// is granted.
    func restPeriodCount() throws(StorageError) -> Int {
        let rows = try connection.query("SELECT count(*) FROM rest_periods WHERE user_id = ?", [.integer(user)])
        return Int(rows.first?.first?.integer ?? 0)
    }

    /// Adds a rest period, within the rest-period limit.
    func addRestPeriod(_ period: RestPeriod, note: String) throws(StorageError) -> RestPeriodRecord {
        try RestPeriodNote.validate(note)
        let count = try restPeriodCount()
        guard count < RestPeriodLimit.perUser else {
            throw StorageError(.limitReached, RestPeriodLimit.reached(count: count))
        }
        return try insertRestPeriod(period, note: note)
    }

    /// Removes a rest period. - Returns: it as it was. - Throws: `.notFound` for an unknown id.
    func removeRestPeriod(_ id: Int64) throws(StorageError) -> RestPeriodRecord {
        let rows = try connection.query(
            "SELECT id, from_day, to_day, note FROM rest_periods WHERE user_id = ? AND id = ?",
            [.integer(user), .integer(id)]
        )
        guard let row = rows.first else { throw StorageError(.notFound, "no rest period with id \(id)") }
        let record = try ScheduleRow.restPeriod(from: row)
        try connection.query("DELETE FROM rest_periods WHERE user_id = ? AND id = ?", [.integer(user), .integer(id)])
        return record
    }

    /// Inserts a rest period of the user, without the checks of `addRestPeriod` (its note's and
    /// the rest-period limit's: the caller made them).
    func insertRestPeriod(_ period: RestPeriod, note: String) throws(StorageError) -> RestPeriodRecord {
        let next = try connection.query(connection.dialect.nextRestPeriodID).first?.first?.integer ?? 1
        try connection.query(
            "INSERT INTO rest_periods (user_id, id, from_day, to_day, note) VALUES (?, ?, ?, ?, ?)",
            [
                .integer(user), .integer(next), .integer(Int64(period.from.dayNumber)),
                .integer(Int64(period.to.dayNumber)), .text(note),
            ]
        )
        return RestPeriodRecord(id: next, period: period, note: note)
    }

    /// Checks that the habit may get a schedule entry from `from`: one that replaces the entry of
    /// that date always may, a new one only below `ScheduleLimit.perHabit`.
    ///
    /// Exact inside the write transaction: SQLite has one writer, and on PostgreSQL every write
    /// that adds schedule entries to an existing habit (SetHabitSchedule, ImportData) has locked
    /// the habit's row for update (`BatchHabits`, `existingHabit`) before it counts, so another
    /// server's entries for the habit are committed, and counted here, first. A habit's creation
    /// adds its first entry to a habit no other transaction sees.
    /// - Throws: `.limitReached` when the habit has no entry on `from` and is at the limit.
    func checkScheduleRoom(habitID: Int64, from: CivilDate) throws(StorageError) {
        let rows = try connection.query(
            """
            SELECT count(*), count(CASE WHEN effective_from = ? THEN 1 END) FROM schedules
            WHERE user_id = ? AND habit_id = ?
            """,
            [.integer(Int64(from.dayNumber)), .integer(user), .integer(habitID)]
        )
        let count = Int(rows.first?[0].integer ?? 0)
        let replaces = (rows.first?[1].integer ?? 0) > 0
        guard replaces || count < ScheduleLimit.perHabit else {
            throw StorageError(.limitReached, ScheduleLimit.reached(count: count))
        }
    }
}
