public import StreakCore

/// What an import would change in an account (`streak import --dry-run`), worked out on the
/// client from the account's own export with the server's rules: habits matched by name (the
/// n-th of a name with the n-th of the account), records added only where missing and inside the
/// habit's days (on or after its first day), rest periods equal in days and note not added twice.
public struct ImportPlan: Hashable, Sendable {
    /// Habits the import would create, by name.
    public var created: [String] = []
    /// Habits it would match.
    public var matched = 0
    /// Completions and skips it would add.
    public var completions = 0
    public var skips = 0
    /// Records the server would refuse (before the habit's first day, a skip on a day done, or
    /// any record of a habit whose name it refuses).
    public var refused = 0
    /// Habits whose name the server would refuse (`HabitName`): neither created nor matched.
    public var refusedHabits: [String] = []
    /// Rest periods it would add.
    public var restPeriods = 0
    /// Whether the settings would change.
    public var settingsChange = false

    /// The plan for bringing `incoming` into an account that holds `current`.
    public init(incoming: ImportArchive, current: ImportArchive, today: CivilDate) {
        var byName: [String: [HabitHistory]] = [:]
        for habit in current.habits { byName[habit.name, default: []].append(habit) }
        var used: [String: Int] = [:]
        for habit in incoming.habits {
            if HabitName.problem(habit.name) != nil {
                refusedHabits.append(habit.name)
                refused += habit.completions.count + habit.skips.count
                continue
            }
            let occurrence = used[habit.name, default: 0]
            used[habit.name] = occurrence + 1
            let existing = byName[habit.name].flatMap { occurrence < $0.count ? $0[occurrence] : nil }
            if existing != nil { matched += 1 } else { created.append(habit.name) }
            let createdOn = existing?.createdOn ?? habit.firstDay ?? today
            // Records after an archive day are kept (they count for nothing), as the server does.
            func active(_ day: CivilDate) -> Bool { day >= createdOn }
            let done = Set(existing?.completions ?? [])
            let skipped = Set(existing?.skips ?? [])
            for day in habit.completions {
                if !active(day) { refused += 1 } else if !done.contains(day) { completions += 1 }
            }
            let incomingDone = Set(habit.completions)
            for day in habit.skips {
                if !active(day) || incomingDone.contains(day) {
                    refused += 1
                } else if !skipped.contains(day) && !done.contains(day) {
                    skips += 1
                }
            }
        }
        let present = Set(current.restPeriods)
        restPeriods = Set(incoming.restPeriods).subtracting(present).count
        if let settings = incoming.settings, let now = current.settings {
            settingsChange =
                (settings.timeZone.map { $0 != now.timeZone } ?? false)
                || (settings.locale.map { $0 != now.locale } ?? false)
                || (settings.weekStart.map { $0 != now.weekStart } ?? false)
                || settings.minPercent != now.minPercent
                || (settings.dayStartMinutes.map { $0 != (now.dayStartMinutes ?? 0) } ?? false)
        }
    }

    /// One line per kind of change, for people.
    public var summary: String {
        let names =
            created.isEmpty ? "" : " (\(created.prefix(5).joined(separator: ", "))\(created.count > 5 ? ", ..." : ""))"
        var habits = "habits: \(created.count) to create\(names), \(matched) matched"
        if !refusedHabits.isEmpty { habits += ", \(refusedHabits.count) refused (a name the server refuses)" }
        var lines = [
            habits,
            "completions: \(completions) to add",
            "skips: \(skips) to add",
            "rest periods: \(restPeriods) to add",
            "settings: \(settingsChange ? "would change" : "unchanged")",
        ]
        if refused > 0 {
            lines.append(
                "refused: \(Plural.of(refused, "record")) (before their habit's first day, a skip on a day done, or of a refused habit)"
            )
        }
        return lines.map { $0 + "\n" }.joined()
    }
}
