import StreakCore

/// Conversions between habit rows and `Habit`; dates are stored as day numbers.
enum HabitRow {
    static func habit(from row: [SQLValue]) throws(StorageError) -> Habit {
        let id = row[0].integer ?? 0
        let createdOn = try date(row[2])
        let archivedOn = row[3] == .null ? nil : try date(row[3])
        do {
            return try Habit(id: id, name: row[1].text ?? "", createdOn: createdOn, archivedOn: archivedOn)
        } catch {
            throw StorageError(.corrupt, "stored habit \(id) is archived before it was created")
        }
    }

    static func date(_ value: SQLValue) throws(StorageError) -> CivilDate {
        guard let number = value.integer, let date = try? CivilDate(dayNumber: Int(number)) else {
            throw StorageError(.corrupt, "a stored day number is out of range")
        }
        return date
    }

    /// Checks a habit name (`HabitName`): 1 to 200 characters (Unicode scalars), not all white
    /// space, no control characters.
    static func validate(name: String) throws(StorageError) {
        if let problem = HabitName.problem(name) { throw StorageError(.invalidArgument, problem) }
    }
}

/// Conversions between the settings row and `UserSettings`.
enum SettingsRow {
    static func load(user: UserID, from connection: any SQLSession) throws(StorageError) -> UserSettings {
        let rows = try connection.query(
            "SELECT time_zone, locale, week_start, min_percent, day_start_minutes FROM settings WHERE user_id = ?",
            [.integer(user)]
        )
        guard let row = rows.first else { return .defaults }
        return try settings(from: row)
    }

    /// A settings row (`time_zone, locale, week_start, min_percent, day_start_minutes`) as settings.
    static func settings(from row: [SQLValue]) throws(StorageError) -> UserSettings {
        guard let weekStart = Weekday(rawValue: Int(row[2].integer ?? 0)) else {
            throw StorageError(.corrupt, "a stored week start is out of range")
        }
        guard let dayStart = try? DayStart(minutes: Int(row[4].integer ?? 0)) else {
            throw StorageError(.corrupt, "a stored day start is out of range")
        }
        // Every write checks it; a stored one out of range is not replaced by the default, which
        // would change how the user's streaks count without anyone knowing.
        let minPercent = row[3].integer.map(Int.init)
        guard (try? StreakThreshold(minPercent: minPercent)) != nil else {
            throw StorageError(.corrupt, "a stored min_percent is out of range")
        }
        return UserSettings(
            timeZone: row[0].text ?? "UTC",
            locale: row[1].text ?? "en_US",
            weekStart: weekStart,
            minPercent: minPercent,
            dayStart: dayStart
        )
    }
}
