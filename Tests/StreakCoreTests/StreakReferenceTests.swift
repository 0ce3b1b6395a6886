import StreakCore
import Testing

/// Streak summaries of an index changed in place equal a brute-force walk over day records.
@Suite("Streaks against a brute-force reference")
struct StreakReferenceTests {
    static let start = day("2024-01-01")

    /// The reference: every calendar day from the first through `asOf`, judged by its day record.
    static func reference(
        _ index: CompletionIndex,
        threshold: StreakThreshold,
        asOf: CivilDate,
        from first: CivilDate = start
    ) -> StreakSummary {
        var runs: [ClosedRange<Int>] = []
        var dayNumber = first.dayNumber
        while dayNumber <= asOf.dayNumber {
            let date = try! CivilDate(dayNumber: dayNumber)
            if index.record(on: date, threshold: threshold).contributes {
                if let last = runs.last, last.upperBound == dayNumber - 1 {
                    runs[runs.count - 1] = last.lowerBound...dayNumber
                } else {
                    runs.append(dayNumber...dayNumber)
                }
            }
            dayNumber += 1
        }
        let longest = runs.reversed().max { $0.count < $1.count }
        let last = runs.last
        let current = last.flatMap { $0.upperBound >= asOf.dayNumber - 1 ? $0 : nil }
        return StreakSummary(
            asOf: asOf,
            current: current?.count ?? 0,
            currentStart: current.map { try! CivilDate(dayNumber: $0.lowerBound) },
            longest: longest?.count ?? 0,
            longestStart: longest.map { try! CivilDate(dayNumber: $0.lowerBound) },
            longestEnd: longest.map { try! CivilDate(dayNumber: $0.upperBound) },
            todayPending: current.map { $0.upperBound == asOf.dayNumber - 1 } ?? false
        )
    }

    @Test(
        "random histories with archived habits, completions outside their window and thresholds",
        arguments: 1...24
    )
    func randomHistories(seed: UInt64) throws {
        var random = SplitMix64(seed: seed)
        let habits = (1...4).map { id in
            let created = try! Self.start.adding(days: Int.random(in: 0..<40, using: &random))
            let archived =
                Bool.random(using: &random)
                ? try! created.adding(days: Int.random(in: 0..<60, using: &random)) : nil
            return try! Habit(id: Int64(id), name: "h\(id)", createdOn: created, archivedOn: archived)
        }
        let completion = { (random: inout SplitMix64) in
            Completion(
                habitID: Int64.random(in: 1...4, using: &random),
                date: try! Self.start.adding(days: Int.random(in: 0..<90, using: &random))
            )
        }
        var index = CompletionIndex(habits: habits, completions: (0..<60).map { _ in completion(&random) })
        let thresholds = [StreakThreshold.atLeastOneHabit, try StreakThreshold(minPercent: 50)]
        for step in 0..<150 {
            let change = completion(&random)
            if Bool.random(using: &random) {
                index.record(habitID: change.habitID, date: change.date)
            } else {
                index.remove(habitID: change.habitID, date: change.date)
            }
            if step % 50 == 49, let habit = index.habits.randomElement(using: &random) {
                // Archiving and un-archiving move completions in and out of their habit's window.
                let archived = habit.archivedOn == nil ? try habit.createdOn.adding(days: 10) : nil
                index.upsert(
                    try Habit(id: habit.id, name: habit.name, createdOn: habit.createdOn, archivedOn: archived)
                )
            }
            let asOf = try Self.start.adding(days: Int.random(in: 0..<95, using: &random))
            for threshold in thresholds {
                let summary = StreakCalculator.summary(index, threshold: threshold, asOf: asOf)
                #expect(
                    summary == Self.reference(index, threshold: threshold, asOf: asOf),
                    "seed \(seed), step \(step), as of \(asOf), \(threshold)"
                )
            }
        }
    }
}
