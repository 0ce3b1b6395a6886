import StreakCore

extension WriteApplier {
    /// Deletes the habit with its schedule, completions and skips; returns it as it was and the
    /// days its records were on (those days' records change).
    func deleteHabit(_ id: Int64) throws(StorageError) -> StoreWriteResult {
        let habit = try withSchedule(existingHabit(id))
        let key: [SQLValue] = [.integer(user), .integer(id)]
        let completions = try days("SELECT day FROM completions WHERE user_id = ? AND habit_id = ? ORDER BY day", key)
        let skips = try days("SELECT day FROM skips WHERE user_id = ? AND habit_id = ? ORDER BY day", key)
        for table in ["completions", "skips", "schedules"] {
            try connection.query("DELETE FROM \(table) WHERE user_id = ? AND habit_id = ?", key)
        }
        try connection.query("DELETE FROM habits WHERE user_id = ? AND id = ?", key)
        habits.rememberMissing(id, of: user)
        return .deletedHabit(habit, completions: completions, skips: skips)
    }

    /// Clears an archived habit's archive day. - Throws: `.failedPrecondition` for a live habit.
    func unarchiveHabit(_ id: Int64) throws(StorageError) -> StoreWriteResult {
        var habit = try existingHabit(id)
        guard habit.archivedOn != nil else {
            throw StorageError(.failedPrecondition, "habit \(id) is not archived")
        }
        try connection.query(
            "UPDATE habits SET archived_on = NULL WHERE user_id = ? AND id = ?",
            [.integer(user), .integer(id)]
        )
        habit.unarchive()
        habits.remember(habit, of: user)
        return .habit(try withSchedule(habit))
    }

    func days(_ sql: String, _ arguments: [SQLValue]) throws(StorageError) -> [CivilDate] {
        var result: [CivilDate] = []
        for row in try connection.query(sql, arguments) {
            result.append(try HabitRow.date(row[0]))
        }
        return result
    }
}
