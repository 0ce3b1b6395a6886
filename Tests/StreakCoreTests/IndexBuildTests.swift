import Testing

@testable import StreakCore

/// Building the index at once (what loading a user does) equals recording the same completions
/// one at a time, whatever the order, duplicates and span of the input.
@Suite("Building the completion index")
struct IndexBuildTests {
    @Test(
        "built at once equals recorded one by one (dense and sparse spans, shuffled, duplicates, inactive days)",
        arguments: [(UInt64(1), 400), (2, 400), (3, 40_000), (4, 3)]
    )
    func builtEqualsRecorded(seed: UInt64, span: Int) throws {
        var random = SplitMix64(seed: seed)
        let first = try CivilDate(year: 2020, month: 1, day: 1)
        // Habits with gaps in their ids, created after the first day (so some completions fall
        // before their habit's window), one archived.
        var habits: [Habit] = []
        for (index, id) in [Int64(3), 7, 8, 20, 41].enumerated() {
            let created = try first.adding(days: index * span / 10)
            let archived = index == 2 ? try first.adding(days: span / 2) : nil
            habits.append(try Habit(id: id, name: "h\(id)", createdOn: created, archivedOn: archived))
        }
        var completions: [Completion] = []
        for _ in 0..<(span < 100 ? 40 : 900) {
            let habit = habits[Int(random.next() % UInt64(habits.count))]
            completions.append(
                Completion(habitID: habit.id, date: try first.adding(days: Int(random.next() % UInt64(span))))
            )
        }
        // A completion of a habit the user does not have counts too.
        completions.append(Completion(habitID: 99, date: try first.adding(days: 1)))
        completions += completions.prefix(50)  // duplicates
        completions.shuffle(using: &random)

        var recorded = CompletionIndex(habits: habits, completions: [])
        for completion in completions { recorded.record(habitID: completion.habitID, date: completion.date) }
        // Half as completions, half as per-habit day numbers, as a store hands them over.
        let half = completions.count / 2
        var days: [Int64: [Int]] = [:]
        for completion in completions[half...] {
            days[completion.habitID, default: []].append(completion.date.dayNumber)
        }
        let built = CompletionIndex(
            habits: habits.reversed(),
            completions: Array(completions[..<half]),
            completionDays: days.map { (habitID: $0.key, dayNumbers: $0.value) }
        )
        #expect(built == recorded)
        #expect(built.daysWithCompletions == built.daysWithCompletions.sorted())
        #expect(built.completedIDs.allSatisfy { $0 == Array(Set($0)).sorted() })
        #expect(built.completedIDs.reduce(0) { $0 + $1.count } == Set(completions).count)
    }
}
