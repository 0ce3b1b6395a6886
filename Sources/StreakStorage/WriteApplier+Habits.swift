import StreakCore

extension WriteApplier {
    /// Creates a habit, within the habit limit.
    func createHabit(name: String, createdOn: CivilDate, schedule: WeekdaySet?) throws(StorageError) -> Habit {
        try HabitRow.validate(name: name)
        let count = try habitCount()
        guard count < HabitLimit.perUser else {
            throw StorageError(.limitReached, HabitLimit.reached(count: count))
        }
        return try insertHabit(name: name, createdOn: createdOn, schedule: schedule)
    }

    /// Expects the habit on `weekdays` from `from` on, within the schedule-change limit.
    func setSchedule(_ id: Int64, weekdays: WeekdaySet, from: CivilDate) throws(StorageError) -> Habit {
        _ = try existingHabit(id)
        try checkScheduleRoom(habitID: id, from: from)
        try ScheduleRow.store(user: user, habitID: id, weekdays: weekdays, from: from, into: connection)
        return try withSchedule(existingHabit(id))
    }

    func renameHabit(_ id: Int64, to name: String) throws(StorageError) -> Habit {
        try HabitRow.validate(name: name)
        var habit = try existingHabit(id)
        try connection.query(
            "UPDATE habits SET name = ? WHERE user_id = ? AND id = ?",
            [.text(name), .integer(user), .integer(id)]
        )
        habit.name = name
        habits.remember(habit, of: user)
        return try withSchedule(habit)
    }

    /// Makes the habit inactive from `day` on. - Throws: `.alreadyExists` for an archived habit.
    func archiveHabit(_ id: Int64, on day: CivilDate) throws(StorageError) -> Habit {
        var habit = try existingHabit(id)
        if let archived = habit.archivedOn {
            throw StorageError(.alreadyExists, "habit \(id) is already archived from \(archived)")
        }
        do {
            try habit.archive(on: day)
        } catch {
            throw StorageError(.invalidArgument, error.message, cause: error)
        }
        try connection.query(
            "UPDATE habits SET archived_on = ? WHERE user_id = ? AND id = ?",
            [.integer(Int64(day.dayNumber)), .integer(user), .integer(id)]
        )
        habits.remember(habit, of: user)
        return try withSchedule(habit)
    }

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
    func unarchiveHabit(_ id: Int64) throws(StorageError) -> Habit {
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
        return try withSchedule(habit)
    }

    func days(_ sql: String, _ arguments: [SQLValue]) throws(StorageError) -> [CivilDate] {
        var result: [CivilDate] = []
        for row in try connection.query(sql, arguments) {
            result.append(try HabitRow.date(row[0]))
        }
        return result
    }
}
