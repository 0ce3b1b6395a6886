import StreakCore

extension SQLStore {
    /// Every row of one user in one statement, each tagged with its table: one snapshot of the
    /// user, one round trip on PostgreSQL, one read transaction on SQLite (six before).
    private static let snapshotSQL = """
        SELECT 0, id, created_on, archived_on, name, CAST(NULL AS TEXT) FROM habits WHERE user_id = ?
        UNION ALL SELECT 1, habit_id, effective_from, weekdays, NULL, NULL FROM schedules WHERE user_id = ?
        UNION ALL SELECT 2, habit_id, day, NULL, NULL, NULL FROM completions WHERE user_id = ?
        UNION ALL SELECT 3, habit_id, day, NULL, NULL, NULL FROM skips WHERE user_id = ?
        UNION ALL SELECT 4, id, from_day, to_day, note, NULL FROM rest_periods WHERE user_id = ?
        UNION ALL SELECT 5, week_start, min_percent, day_start_minutes, time_zone, locale
            FROM settings WHERE user_id = ?
        """

    /// The day numbers a stored day may have (`CivilDate`'s range).
    private static let dayNumbers = CivilDate.min.dayNumber...CivilDate.max.dayNumber

    /// The user's habits, completions, skips, rest periods and settings, read with one statement;
    /// the completions are decoded in place, straight to day numbers.
    public func snapshot(of user: UserID) throws(StorageError) -> UserSnapshot {
        try withReader { connection throws(StorageError) in
            var reader = SnapshotReader()
            try connection.forEachRow(Self.snapshotSQL, Array(repeating: .integer(user), count: 6)) {
                row throws(StorageError) in try reader.add(row)
            }
            return try reader.snapshot()
        }.get()
    }

    /// Sorts the rows of `snapshotSQL` into a snapshot.
    private struct SnapshotReader {
        var habits: [Habit] = []
        var schedules: [Int64: [ScheduleEntry]] = [:]
        var completionDays: [(habitID: Int64, dayNumbers: [Int])] = []
        var skips: [Skip] = []
        var restPeriods: [RestPeriodRecord] = []
        var settings = UserSettings.defaults

        mutating func add(_ row: SQLRowView) throws(StorageError) {
            switch row.int64(0) {
            case 2:
                // A habit's completions arrive together (the primary key's order); a habit seen
                // again starts another group, which the index merges. Both columns are NOT NULL.
                let habitID = row.int64(1)
                let number = row.int64(2)
                guard dayNumbers.contains(Int(number)) else {
                    throw StorageError(.corrupt, "a stored day number is out of range")
                }
                if completionDays.last?.habitID == habitID {
                    completionDays[completionDays.count - 1].dayNumbers.append(Int(number))
                } else {
                    // Room for a year at once rather than ten doublings (the array is short-lived).
                    var days: [Int] = []
                    days.reserveCapacity(400)
                    days.append(Int(number))
                    completionDays.append((habitID, days))
                }
            case 0:
                let values = row.values
                habits.append(try HabitRow.habit(from: [values[1], values[4], values[2], values[3]]))
            case 1:
                let (habitID, entry) = try ScheduleRow.entry(from: Array(row.values[1...3]))
                schedules[habitID, default: []].append(entry)
            case 3:
                let values = row.values
                skips.append(Skip(habitID: values[1].integer ?? 0, date: try HabitRow.date(values[2])))
            case 4: restPeriods.append(try ScheduleRow.restPeriod(from: Array(row.values[1...4])))
            case 5:
                let values = row.values
                settings = try SettingsRow.settings(from: [values[4], values[5], values[1], values[2], values[3]])
            default: throw StorageError(.corrupt, "a user's rows came back untagged")
            }
        }

        func snapshot() throws(StorageError) -> UserSnapshot {
            UserSnapshot(
                habits: ScheduleRow.attach(
                    schedules.mapValues { HabitSchedule($0) },
                    to: habits.sorted { $0.id < $1.id }
                ),
                completionDays: completionDays,
                skips: skips,
                restPeriods: restPeriods.sorted(),
                settings: settings
            )
        }
    }
}
