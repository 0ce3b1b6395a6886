import StreakCore

/// Conversions between schedule, skip and rest-period rows and the core's types. Weekday sets
/// are stored as their seven bits (bit 0 = Sunday), days as day numbers.
enum ScheduleRow {
    /// The schedules of a user's habits (one habit when `habitID` is given), by habit id.
    static func load(
        user: UserID,
        habitID: Int64? = nil,
        from connection: any SQLSession
    ) throws(StorageError) -> [Int64: HabitSchedule] {
        var sql = "SELECT habit_id, effective_from, weekdays FROM schedules WHERE user_id = ?"
        var arguments: [SQLValue] = [.integer(user)]
        if let habitID {
            sql += " AND habit_id = ?"
            arguments.append(.integer(habitID))
        }
        var entries: [Int64: [ScheduleEntry]] = [:]
        for row in try connection.query(sql, arguments) {
            let (habitID, entry) = try Self.entry(from: row)
            entries[habitID, default: []].append(entry)
        }
        return entries.mapValues { HabitSchedule($0) }
    }

    /// A schedule row (`habit_id, effective_from, weekdays`) as its habit's id and entry.
    static func entry(from row: [SQLValue]) throws(StorageError) -> (habitID: Int64, entry: ScheduleEntry) {
        let bits = row[2].integer ?? 0
        guard (1...0x7F).contains(bits),
            let weekdays = try? WeekdaySet(numbers: (1...7).filter { bits & (1 << ($0 - 1)) != 0 })
        else { throw StorageError(.corrupt, "a stored schedule has no weekday") }
        return (row[0].integer ?? 0, ScheduleEntry(effectiveFrom: try HabitRow.date(row[1]), weekdays: weekdays))
    }

    /// `habits` with their stored schedules.
    static func attach(_ schedules: [Int64: HabitSchedule], to habits: [Habit]) -> [Habit] {
        guard !schedules.isEmpty else { return habits }
        return habits.map { habit in
            var habit = habit
            if let schedule = schedules[habit.id] { habit.schedule = schedule }
            return habit
        }
    }

    /// Stores a schedule entry, replacing one of the same habit and date.
    static func store(
        user: UserID,
        habitID: Int64,
        weekdays: WeekdaySet,
        from date: CivilDate,
        into connection: any SQLSession
    ) throws(StorageError) {
        try connection.query(
            """
            INSERT INTO schedules (user_id, habit_id, effective_from, weekdays) VALUES (?, ?, ?, ?)
            ON CONFLICT (user_id, habit_id, effective_from) DO UPDATE SET weekdays = excluded.weekdays
            """,
            [.integer(user), .integer(habitID), .integer(Int64(date.dayNumber)), .integer(Int64(weekdays.bits))]
        )
    }

    /// A rest-period row (`id, from_day, to_day, note`) as a record.
    static func restPeriod(from row: [SQLValue]) throws(StorageError) -> RestPeriodRecord {
        let id = row[0].integer ?? 0
        guard let period = try? RestPeriod(from: try HabitRow.date(row[1]), to: try HabitRow.date(row[2])) else {
            throw StorageError(.corrupt, "stored rest period \(id) ends before it starts")
        }
        return RestPeriodRecord(id: id, period: period, note: row[3].text ?? "")
    }
}
