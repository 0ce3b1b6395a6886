import StreakCore

/// A habit created on `created` with schedule entries (effective-from date, weekday numbers).
func habit(_ id: Int64, created: String = "2024-01-01", schedule: [(String, [Int])] = []) -> Habit {
    var habit = Habit(id: id, name: "habit \(id)", createdOn: day(created))
    for (from, numbers) in schedule { habit.schedule.set(try! WeekdaySet(numbers: numbers), from: day(from)) }
    return habit
}

/// "habitID@YYYY-MM-DD" as (id, date).
func habitDay(_ text: String) -> (Int64, CivilDate) {
    let parts = text.split(separator: "@")
    return (Int64(parts[0])!, day(String(parts[1])))
}

/// An index with schedules, completions and skips as "habitID@YYYY-MM-DD", rest periods as "FROM..TO".
func index(habits: [Habit], completions: [String], skips: [String] = [], rest: [String] = []) -> CompletionIndex {
    CompletionIndex(
        habits: habits,
        completions: completions.map(habitDay).map { Completion(habitID: $0.0, date: $0.1) },
        skips: skips.map(habitDay).map { Skip(habitID: $0.0, date: $0.1) },
        restPeriods: rest.map(restPeriod)
    )
}

/// "FROM..TO" as a rest period.
func restPeriod(_ text: String) -> RestPeriod {
    let parts = text.components(separatedBy: "..")
    return try! RestPeriod(from: day(parts[0]), to: day(parts[1]))
}
