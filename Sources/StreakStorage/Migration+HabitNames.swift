import StreakCore

extension Migration {
    /// The name of the migration that repairs the habit names and rest-period notes the current
    /// rules refuse.
    static let habitNamesName = "habit names and rest-period notes the current rules refuse are repaired"

    /// How many habits `renameRefusedHabitNames` reads at a time, so that a large store's names
    /// are never all in memory at once.
    static let habitNamePage = 5_000

    /// The migration's data step: `renameRefusedHabitNames` a page at a time.
    static let renameRefusedHabitNamesStep: @Sendable (any SQLSession) throws(StorageError) -> Void = {
        connection throws(StorageError) in
        try renameRefusedHabitNames(connection, page: habitNamePage)
    }

    /// The name a blank one becomes: "Unnamed habit 7", after the habit's id, which no other
    /// habit of its user has.
    static func placeholderName(habitID: Int64) -> String {
        "Unnamed habit \(habitID)"
    }

    /// What a name the current rule (`HabitName`) refuses becomes, nil for one it accepts: a name
    /// too long is cut after its last whole character that fits, and one that is still refused
    /// (white space only) becomes `placeholderName(habitID:)`.
    static func repairedName(_ name: String, habitID: Int64) -> String? {
        guard HabitName.problem(name) != nil else { return nil }
        let shortened = shortened(name, to: TextLength.maximum)
        return HabitName.problem(shortened) == nil ? shortened : placeholderName(habitID: habitID)
    }

    /// `text`'s longest prefix of whole characters (`Character`) of at most `limit` Unicode scalars.
    static func shortened(_ text: String, to limit: Int) -> String {
        var shortened = ""
        var length = 0
        for character in text {
            let more = TextLength.of(String(character))
            guard length + more <= limit else { break }
            shortened.append(character)
            length += more
        }
        return shortened
    }

    /// Renames every habit whose name the current rule refuses (`repairedName`), and cuts
    /// rest-period notes longer than the limit.
    ///
    /// The first versions accepted names of white space only ("   ") and counted the 200 of a name
    /// or a note in characters, not Unicode scalars ("e" and a combining accent are two). The
    /// server still serves such a habit or note and exports it, but an import refuses it, so the
    /// export of an account holding one could not be imported anywhere. A later change to a rule
    /// that refuses what it accepted before needs a migration of its own running this again.
    /// - Parameter page: how many habits one query reads.
    static func renameRefusedHabitNames(_ connection: any SQLSession, page: Int) throws(StorageError) {
        var after: (user: Int64, id: Int64) = (Int64.min, Int64.min)
        var renames: [(user: Int64, id: Int64, name: String)] = []
        while true {
            let rows = try connection.query(
                """
                SELECT user_id, id, name FROM habits WHERE (user_id, id) > (?, ?)
                ORDER BY user_id, id LIMIT \(page)
                """,
                [.integer(after.user), .integer(after.id)]
            )
            for row in rows {
                guard let user = row[0].integer, let id = row[1].integer else { continue }
                after = (user, id)
                if let name = repairedName(row[2].text ?? "", habitID: id) { renames.append((user, id, name)) }
            }
            if rows.count < page { break }
        }
        for habit in renames {
            try connection.query(
                "UPDATE habits SET name = ? WHERE user_id = ? AND id = ?",
                [.text(habit.name), .integer(habit.user), .integer(habit.id)]
            )
        }
        // Rest-period notes were counted in characters too. Both engines' length() counts
        // Unicode scalars, so only the notes to cut are read.
        let limit = RestPeriodRecord.maximumNoteLength
        let notes = try connection.query(
            "SELECT user_id, id, note FROM rest_periods WHERE length(note) > ?",
            [.integer(Int64(limit))]
        )
        for row in notes {
            guard let user = row[0].integer, let id = row[1].integer, let note = row[2].text else { continue }
            try connection.query(
                "UPDATE rest_periods SET note = ? WHERE user_id = ? AND id = ?",
                [.text(shortened(note, to: limit)), .integer(user), .integer(id)]
            )
        }
    }
}
