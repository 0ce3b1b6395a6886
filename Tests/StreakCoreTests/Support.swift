import StreakCore

/// A date from "YYYY-MM-DD"; tests only.
func day(_ text: String) -> CivilDate { try! CivilDate(parsing: text) }

/// An index from habits created on given days and completions "habitID@YYYY-MM-DD".
func index(habits: [(Int64, String)], archived: [Int64: String] = [:], completions: [String]) -> CompletionIndex {
    CompletionIndex(
        habits: habits.map {
            try! Habit(id: $0.0, name: "habit \($0.0)", createdOn: day($0.1), archivedOn: archived[$0.0].map(day))
        },
        completions: completions.map { text in
            let parts = text.split(separator: "@")
            return Completion(habitID: Int64(parts[0])!, date: day(String(parts[1])))
        }
    )
}
