import StreakCore

extension WriteApplier {
    /// Applies an import: each habit matched by name or created, then its schedule, archive day,
    /// completions and skips; then rest periods and settings. A record that cannot be applied
    /// (a blank name, a day before the habit's first day, a skip on a day it is also done) is
    /// reported and left out; everything else is applied, idempotently. Records after a habit's
    /// archive day are kept, as the store keeps them (they count for nothing). A habit that would
    /// be created past the user's habit limit (`HabitLimit`) is refused like a bad name: one error
    /// record, nothing of it applied. So is each schedule entry past its habit's limit
    /// (`ScheduleLimit`, field `schedule`) and each rest period past the user's
    /// (`RestPeriodLimit`, field `rest_periods`); the rest of the import is applied.
    func importData(_ batch: ImportBatch) throws(StorageError) -> ImportOutcome {
        var outcome = ImportOutcome()
        var changed = Set<CivilDate>()
        var matcher = HabitMatcher(stored: try storedHabitsByName())
        for (index, item) in batch.habits.enumerated() {
            let found = try matchOrCreate(item, index: index, matcher: &matcher, today: batch.today, outcome: &outcome)
            guard var habit = found else {
                outcome.habits.append(nil)
                continue
            }
            try importSchedule(item, index: index, habit: habit, outcome: &outcome)
            // Records first, then the archive day: an account keeps the records it got after a
            // habit's archive day (they count for nothing), and so does its export and import.
            try importDays(item, index: index, habit: habit, outcome: &outcome, changed: &changed)
            habit = try importArchiveDay(item, index: index, habit: habit, outcome: &outcome, changed: &changed)
            outcome.habits.append(try withSchedule(existingHabit(habit.id)))
        }
        try importRestPeriods(batch.restPeriods, outcome: &outcome, changed: &changed)
        if let change = batch.settings {
            let before = try SettingsRow.load(user: user, from: connection)
            do {
                guard case .settings(let after) = try apply(.changeSettings(change)) else { return outcome }
                outcome.settingsChanged = after != before
            } catch {
                outcome.errors.append(.init(habitIndex: nil, field: "settings", message: error.message))
            }
        }
        outcome.changedDays = changed.sorted()
        return outcome
    }

    /// The user's habits by name, and how many of each name the import has matched so far: the
    /// n-th habit of a name in the batch matches the n-th stored habit of that name.
    struct HabitMatcher {
        let stored: [String: [Int64]]
        var used: [String: Int] = [:]
        /// The habits the user has, counting those the import created (for `HabitLimit`).
        private(set) var count: Int

        init(stored: [String: [Int64]]) {
            self.stored = stored
            count = stored.values.reduce(0) { $0 + $1.count }
        }

        /// The stored habit the next habit named `name` matches, if any.
        mutating func next(named name: String) -> Int64? {
            let occurrence = used[name, default: 0]
            used[name] = occurrence + 1
            guard let ids = stored[name], occurrence < ids.count else { return nil }
            return ids[occurrence]
        }

        /// Counts a habit the import created.
        mutating func created() {
            count += 1
        }
    }

    /// The stored habit `item` matches, or a new one; nil (with an error record) for a name the
    /// rules refuse or a habit past the user's limit.
    private func matchOrCreate(
        _ item: HabitHistory,
        index: Int,
        matcher: inout HabitMatcher,
        today: CivilDate,
        outcome: inout ImportOutcome
    ) throws(StorageError) -> Habit? {
        do {
            try HabitRow.validate(name: item.name)
        } catch {
            outcome.errors.append(.init(habitIndex: index, field: "name", message: error.message))
            return nil
        }
        if let id = matcher.next(named: item.name) {
            outcome.habitsMatched += 1
            return try existingHabit(id)
        }
        guard matcher.count < HabitLimit.perUser else {
            outcome.errors.append(
                .init(habitIndex: index, field: "name", message: HabitLimit.reached(count: matcher.count))
            )
            return nil
        }
        let habit = try insertHabit(name: item.name, createdOn: item.firstDay ?? today)
        matcher.created()
        outcome.habitsCreated += 1
        return habit
    }

    /// Archives `habit` on `item`'s archive day, unless it is archived already; a day before its
    /// first day is refused. Returns the habit as it is now.
    private func importArchiveDay(
        _ item: HabitHistory,
        index: Int,
        habit: Habit,
        outcome: inout ImportOutcome,
        changed: inout Set<CivilDate>
    ) throws(StorageError) -> Habit {
        guard let archivedOn = item.archivedOn, habit.archivedOn == nil else { return habit }
        guard archivedOn >= habit.createdOn else {
            outcome.errors.append(
                .init(
                    habitIndex: index,
                    field: "archived_on",
                    date: archivedOn,
                    message: "before the habit's first day \(habit.createdOn)"
                )
            )
            return habit
        }
        guard case .habit(let archived) = try apply(.archiveHabit(id: habit.id, on: archivedOn)) else { return habit }
        changed.insert(archivedOn)
        return archived
    }

    /// The ids of the user's habits by exact name, ascending.
    private func storedHabitsByName() throws(StorageError) -> [String: [Int64]] {
        var result: [String: [Int64]] = [:]
        for row in try connection.query("SELECT id, name FROM habits WHERE user_id = ? ORDER BY id", [.integer(user)]) {
            guard let id = row[0].integer, let name = row[1].text else { continue }
            result[name, default: []].append(id)
        }
        return result
    }

    private func importSchedule(
        _ item: HabitHistory,
        index: Int,
        habit: Habit,
        outcome: inout ImportOutcome
    ) throws(StorageError) {
        let current = try ScheduleRow.load(user: user, habitID: habit.id, from: connection)[habit.id]
        // The habit's entries by date: one on a date it has replaces it; a new one needs room.
        var dates = Set(current?.entries.map(\.effectiveFrom) ?? [])
        for entry in item.schedule {
            if current?.entries.contains(entry) == true { continue }
            if !dates.contains(entry.effectiveFrom) {
                guard dates.count < ScheduleLimit.perHabit else {
                    outcome.errors.append(
                        .init(
                            habitIndex: index,
                            field: "schedule",
                            date: entry.effectiveFrom,
                            message: ScheduleLimit.reached(count: dates.count)
                        )
                    )
                    continue
                }
                dates.insert(entry.effectiveFrom)
            }
            try ScheduleRow.store(
                user: user,
                habitID: habit.id,
                weekdays: entry.weekdays,
                from: entry.effectiveFrom,
                into: connection
            )
            outcome.schedulesSet += 1
        }
    }

    private func importDays(
        _ item: HabitHistory,
        index: Int,
        habit: Habit,
        outcome: inout ImportOutcome,
        changed: inout Set<CivilDate>
    ) throws(StorageError) {
        let done = Set(item.completions)
        for date in Set(item.completions).sorted() {
            guard date >= habit.createdOn else {
                outcome.errors.append(outsideWindow(index, "completions", date, habit))
                continue
            }
            try connection.query(
                "INSERT INTO completions (user_id, habit_id, day) VALUES (?, ?, ?) ON CONFLICT DO NOTHING",
                [.integer(user), .integer(habit.id), .integer(Int64(date.dayNumber))]
            )
            if connection.changes == 1 {
                outcome.completionsAdded += 1
                changed.insert(date)
            }
        }
        for date in Set(item.skips).sorted() {
            guard date >= habit.createdOn else {
                outcome.errors.append(outsideWindow(index, "skips", date, habit))
                continue
            }
            guard !done.contains(date) else {
                outcome.errors.append(
                    .init(habitIndex: index, field: "skips", date: date, message: "the day is also a completion")
                )
                continue
            }
            let key: [SQLValue] = [.integer(user), .integer(habit.id), .integer(Int64(date.dayNumber))]
            // A day done in the account stays done: an import adds, it does not take back.
            let rows = try connection.query(
                "SELECT 1 FROM completions WHERE user_id = ? AND habit_id = ? AND day = ?",
                key
            )
            if !rows.isEmpty { continue }
            try connection.query(
                "INSERT INTO skips (user_id, habit_id, day) VALUES (?, ?, ?) ON CONFLICT DO NOTHING",
                key
            )
            if connection.changes == 1 {
                outcome.skipsAdded += 1
                changed.insert(date)
            }
        }
    }

    private func importRestPeriods(
        _ periods: [RestPeriodRecord],
        outcome: inout ImportOutcome,
        changed: inout Set<CivilDate>
    ) throws(StorageError) {
        guard !periods.isEmpty else { return }
        var notes: [[Int]: Set<String>] = [:]
        // The user's rest periods, counted against `RestPeriodLimit` as they are added.
        var count = 0
        for row in try connection.query(
            "SELECT from_day, to_day, note FROM rest_periods WHERE user_id = ?",
            [.integer(user)]
        ) {
            let key = [Int(row[0].integer ?? 0), Int(row[1].integer ?? 0)]
            notes[key, default: []].insert(row[2].text ?? "")
            count += 1
        }
        for record in periods {
            let key = [record.period.from.dayNumber, record.period.to.dayNumber]
            if notes[key]?.contains(record.note) == true { continue }
            do throws(StorageError) {
                try RestPeriodNote.validate(record.note)
                guard count < RestPeriodLimit.perUser else {
                    throw StorageError(.limitReached, RestPeriodLimit.reached(count: count))
                }
                _ = try insertRestPeriod(record.period, note: record.note)
                count += 1
            } catch {
                outcome.errors.append(
                    .init(habitIndex: nil, field: "rest_periods", date: record.period.from, message: error.message)
                )
                continue
            }
            notes[key, default: []].insert(record.note)
            outcome.restPeriodsAdded += 1
            var day = record.period.from
            while day <= record.period.to {
                changed.insert(day)
                guard let next = try? day.adding(days: 1) else { break }
                day = next
            }
        }
    }

    private func outsideWindow(
        _ index: Int,
        _ field: String,
        _ date: CivilDate,
        _ habit: Habit
    ) -> ImportOutcome.RecordError {
        .init(
            habitIndex: index,
            field: field,
            date: date,
            message: "before the habit's first day \(habit.createdOn)"
        )
    }
}
