import StreakCore

/// Applies one write inside the writer's transaction.
struct WriteApplier {
    let connection: any SQLSession
    let user: UserID
    /// The habits this write's batch has read or written: each is asked of the database once.
    let habits: BatchHabits

    func apply(_ write: StoreWrite) throws(StorageError) -> StoreWriteResult {
        switch write {
        case .createHabit(let name, let createdOn, let schedule):
            .habit(try createHabit(name: name, createdOn: createdOn, schedule: schedule))
        case .setSchedule(let id, let weekdays, let from):
            .habit(try setSchedule(id, weekdays: weekdays, from: from))
        case .renameHabit(let id, let name):
            .habit(try renameHabit(id, to: name))
        case .archiveHabit(let id, let day):
            .habit(try archiveHabit(id, on: day))
        case .unarchiveHabit(let id):
            .habit(try unarchiveHabit(id))
        case .deleteHabit(let id):
            try deleteHabit(id)
        case .addRestPeriod(let period, let note):
            .restPeriod(try addRestPeriod(period, note: note))
        case .removeRestPeriod(let id):
            .restPeriod(try removeRestPeriod(id))
        case .completions(let changes):
            .completions(changed: try applyDayChanges(changes))
        case .changeSettings(let change):
            .settings(try updateSettings(change.applied(to: SettingsRow.load(user: user, from: connection))))
        case .updateSettings(let settings):
            .settings(try updateSettings(settings))
        case .importData(let batch):
            .imported(try importData(batch))
        }
    }

    /// Records, removes, skips or unskips days. - Returns: for each change, whether it changed a row.
    private func applyDayChanges(_ changes: [CompletionChange]) throws(StorageError) -> [Bool] {
        var changed: [Bool] = []
        changed.reserveCapacity(changes.count)
        for change in changes {
            var skipChanged = false
            switch change {
            case .record(let habitID, let date):
                try checkRecord(habitID: habitID, date: date)
                try connection.query(
                    "INSERT INTO completions (user_id, habit_id, day) VALUES (?, ?, ?) ON CONFLICT DO NOTHING",
                    [.integer(user), .integer(habitID), .integer(Int64(date.dayNumber))]
                )
            case .remove(let habitID, let date):
                _ = try existingHabit(habitID)
                try connection.query(
                    "DELETE FROM completions WHERE user_id = ? AND habit_id = ? AND day = ?",
                    [.integer(user), .integer(habitID), .integer(Int64(date.dayNumber))]
                )
            case .skip(let habitID, let date):
                try checkRecord(habitID: habitID, date: date)
                let key: [SQLValue] = [.integer(user), .integer(habitID), .integer(Int64(date.dayNumber))]
                try connection.query("DELETE FROM completions WHERE user_id = ? AND habit_id = ? AND day = ?", key)
                skipChanged = connection.changes == 1
                try connection.query(
                    "INSERT INTO skips (user_id, habit_id, day) VALUES (?, ?, ?) ON CONFLICT DO NOTHING",
                    key
                )
            case .unskip(let habitID, let date):
                _ = try existingHabit(habitID)
                try connection.query(
                    "DELETE FROM skips WHERE user_id = ? AND habit_id = ? AND day = ?",
                    [.integer(user), .integer(habitID), .integer(Int64(date.dayNumber))]
                )
            }
            changed.append(skipChanged || connection.changes == 1)
        }
        return changed
    }

    /// Stores the user's whole settings (a change was merged with the stored ones by the caller).
    private func updateSettings(_ settings: UserSettings) throws(StorageError) -> UserSettings {
        if let percent = settings.minPercent, let problem = StreakThreshold.problem(minPercent: percent) {
            throw StorageError(.invalidArgument, problem)
        }
        try connection.query(
            """
            INSERT INTO settings (user_id, time_zone, locale, week_start, min_percent, day_start_minutes)
            VALUES (?, ?, ?, ?, ?, ?)
            ON CONFLICT (user_id) DO UPDATE SET time_zone = excluded.time_zone, locale = excluded.locale,
                week_start = excluded.week_start, min_percent = excluded.min_percent,
                day_start_minutes = excluded.day_start_minutes
            """,
            [
                .integer(user), .text(settings.timeZone), .text(settings.locale),
                .integer(Int64(settings.weekStart.rawValue)),
                settings.minPercent.map { .integer(Int64($0)) } ?? .null,
                .integer(Int64(settings.dayStart.minutes)),
            ]
        )
        return settings
    }

    /// Inserts a new habit of the user, without the checks of `createHabit` (its name's and the
    /// habit limit's: the caller made them).
    func insertHabit(name: String, createdOn: CivilDate, schedule: WeekdaySet? = nil) throws(StorageError) -> Habit {
        // Unique per store (SQLite: index habits_by_id, and only the writer inserts; PostgreSQL:
        // a sequence, as several servers may insert).
        let next = try connection.query(connection.dialect.nextHabitID).first?.first?.integer ?? 1
        try connection.query(
            "INSERT INTO habits (user_id, id, name, created_on) VALUES (?, ?, ?, ?)",
            [.integer(user), .integer(next), .text(name), .integer(Int64(createdOn.dayNumber))]
        )
        var habit = Habit(id: next, name: name, createdOn: createdOn)
        if let schedule {
            try ScheduleRow.store(user: user, habitID: next, weekdays: schedule, from: createdOn, into: connection)
            habit.schedule.set(schedule, from: createdOn)
        }
        habits.remember(habit, of: user)
        return habit
    }

    /// How many habits the user has, archived ones included (`HabitLimit`). Exact inside the
    /// write transaction: SQLite has one writer, and on PostgreSQL every write that may create a
    /// habit holds the user's habit lock (`DayLocks`) until its commit, so another server's
    /// creations of this user are committed, and counted here, before the lock is granted.
    func habitCount() throws(StorageError) -> Int {
        let rows = try connection.query("SELECT count(*) FROM habits WHERE user_id = ?", [.integer(user)])
        return Int(rows.first?.first?.integer ?? 0)
    }

    /// Checks that the user's habit exists and is active on `date`, as recording requires.
    func checkRecord(habitID: Int64, date: CivilDate) throws(StorageError) {
        let habit = try existingHabit(habitID)
        guard habit.isActive(on: date) else {
            throw StorageError(.invalidArgument, "habit \(habitID) is not active on \(date) \(window(of: habit))")
        }
    }

    /// `habit` with its stored schedule (the batch's habit cache holds habits without theirs).
    func withSchedule(_ habit: Habit) throws(StorageError) -> Habit {
        var habit = habit
        habit.schedule = try ScheduleRow.load(user: user, habitID: habit.id, from: connection)[habit.id] ?? .everyDay
        return habit
    }

    func existingHabit(_ id: Int64) throws(StorageError) -> Habit {
        switch habits.lookup(id, of: user) {
        case .habit(let habit): return habit
        case .missing: throw StorageError(.notFound, "no habit with id \(id)")
        case nil: break
        }
        let rows = try connection.query(
            "SELECT id, name, created_on, archived_on FROM habits WHERE user_id = ? AND id = ?"
                + habits.lockClause,
            [.integer(user), .integer(id)]
        )
        guard let row = rows.first else {
            habits.rememberMissing(id, of: user)
            throw StorageError(.notFound, "no habit with id \(id)")
        }
        let habit = try HabitRow.habit(from: row)
        habits.remember(habit, of: user)
        return habit
    }

    func window(of habit: Habit) -> String {
        guard let archived = habit.archivedOn else { return "(active from \(habit.createdOn))" }
        return "(active \(habit.createdOn) until \(archived), not included)"
    }
}
