public import StreakWire

/// What the server answered to an import's requests, added up per habit of the archive: a habit
/// split over several requests is created (or matched) once, and a habit whose name the server
/// refused is neither created nor matched.
public struct ImportTally: Hashable, Sendable {
    /// The number of habits in the archive.
    public var habitCount: Int
    /// Habits the server created.
    public var created = 0
    /// Completions, skips, rest periods and schedule entries added.
    public var completions = 0
    public var skips = 0
    public var restPeriods = 0
    public var schedules = 0
    /// Whether the settings changed.
    public var settingsChanged = false
    /// The records the server refused and listed, one line each: `'Read' completions 2025-05-30: ...`.
    public var errorLines: [String] = []
    /// Every record the server refused, listed or not (a server lists at most 1,000 per request
    /// and counts the others in `error_count`).
    public var refusedCount = 0
    /// The archive's indexes of the habits whose name the server refused.
    public var refusedHabits: Set<Int> = []
    /// The completions and skips that went with a refused habit: none of them was imported, but
    /// the server counts the habit as one refused record (its name, or the habit limit).
    public var recordsOfRefusedHabits = 0

    /// An empty tally for an archive of `habitCount` habits.
    public init(habitCount: Int) {
        self.habitCount = habitCount
    }

    /// Habits matched to one of the account's: every habit neither created nor refused.
    public var matched: Int {
        max(0, habitCount - created - refusedHabits.count)
    }

    /// Adds the answer to one request of `batch`.
    public mutating func add(_ response: WireImportDataResponse, batch: ImportBatchRequest) {
        let habits = batch.request.habits
        created += Int(response.habitsCreated)
        completions += Int(response.completionsAdded)
        skips += Int(response.skipsAdded)
        restPeriods += Int(response.restPeriodsAdded)
        schedules += Int(response.schedulesSet)
        settingsChanged = settingsChanged || response.settingsChanged
        // An older server sends no error_count: it lists every error.
        refusedCount += max(Int(response.errorCount), response.errors.count)
        // A refused habit has an empty entry in `habits` (a refusal the server counted but did
        // not list included); an older server's answer may lack the list, but lists every error.
        var refusedHere: Set<Int> = []
        if response.habits.count == habits.count {
            for (index, habit) in response.habits.enumerated() where habit.id == 0 { refusedHere.insert(index) }
        }
        for error in response.errors where error.field == "name" { refusedHere.insert(Int(error.habitIndex)) }
        for index in refusedHere where batch.habitIndexes.indices.contains(index) && habits.indices.contains(index) {
            refusedHabits.insert(batch.habitIndexes[index])
            recordsOfRefusedHabits += habits[index].completions.count + habits[index].skips.count
        }
        for error in response.errors {
            let index = Int(error.habitIndex)
            let known = habits.indices.contains(index)
            let habit = known ? "'\(habits[index].name)' " : ""
            let day = error.date.map { " \($0)" } ?? ""
            errorLines.append("\(habit)\(error.field)\(day): \(error.message)")
        }
    }

    /// The counts for people, each line ending in a newline.
    public var summary: String {
        var habits = "\(Plural.of(created, "habit")) created, \(matched) matched"
        if !refusedHabits.isEmpty { habits += ", \(refusedHabits.count) refused" }
        var text =
            "imported: \(habits); \(Plural.of(completions, "completion")), \(Plural.of(skips, "skip")), "
            + "\(Plural.of(restPeriods, "rest period")) added; settings \(settingsChanged ? "changed" : "unchanged")\n"
        if refusedCount > errorLines.count {
            text +=
                "\(Plural.of(refusedCount, "record")) \(Plural.was(refusedCount)) refused; "
                + "the server listed \(errorLines.count) (on standard error) and counted \(omitted) more\n"
        } else if !errorLines.isEmpty {
            let count = errorLines.count
            text += "\(Plural.of(count, "record")) \(Plural.was(count)) refused (listed on standard error)\n"
        }
        if recordsOfRefusedHabits > 0 {
            let records = Plural.of(recordsOfRefusedHabits, "completion or skip", plural: "completions and skips")
            text +=
                "\(records) of the refused \(refusedHabits.count == 1 ? "habit" : "habits") \(Plural.was(recordsOfRefusedHabits)) not imported\n"
        }
        return text
    }

    /// The refused records the server counted but did not list.
    public var omitted: Int { max(0, refusedCount - errorLines.count) }

    /// The counts as `streak import --json` prints them.
    public var json: JSONValue {
        .object([
            ("habits_created", .int(Int64(created))), ("habits_matched", .int(Int64(matched))),
            ("completions_added", .int(Int64(completions))), ("skips_added", .int(Int64(skips))),
            ("rest_periods_added", .int(Int64(restPeriods))), ("settings_changed", .bool(settingsChanged)),
            ("refused", .array(errorLines.map(JSONValue.string))),
            ("refused_count", .int(Int64(refusedCount))),
            ("records_of_refused_habits", .int(Int64(recordsOfRefusedHabits))),
        ])
    }
}
