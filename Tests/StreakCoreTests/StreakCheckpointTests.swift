import StreakCore
import Testing

@testable import StreakCore

/// Streak summaries that start from a kept checkpoint equal summaries walked from the first day,
/// through every kind of change to the index; the checkpoint is dropped whenever a change reaches
/// the days it covers; and a summary from it walks only the days since.
@Suite("Streak checkpoints")
struct StreakCheckpointTests {
    static let start = day("2020-01-01")

    /// The same index without its checkpoint: a restriction to every habit rebuilds the windows.
    static func walkedFromTheStart(_ index: CompletionIndex) throws -> CompletionIndex {
        let fresh = try index.restricted(to: Set(index.habits.map(\.id)))
        #expect(fresh.streakCheckpoint == nil)
        return fresh
    }

    @Test(
        "random changes near today and far back, habits archived, thresholds and days moving on",
        arguments: 1...12
    )
    func randomChanges(seed: UInt64) throws {
        var random = SplitMix64(seed: seed)
        let habits = try (1...3).map { id in
            try Habit(id: Int64(id), name: "h\(id)", createdOn: Self.start.adding(days: id * 30))
        }
        var today = 900
        let completions = (0..<1_500).map { _ in
            Completion(
                habitID: Int64.random(in: 1...3, using: &random),
                date: try! Self.start.adding(days: Int.random(in: 0..<today, using: &random))
            )
        }
        var index = CompletionIndex(habits: habits, completions: completions)
        let thresholds = [StreakThreshold.atLeastOneHabit, try StreakThreshold(minPercent: 60)]
        var startedFromCheckpoint = 0
        for step in 0..<400 {
            let back =
                Int.random(in: 0..<10, using: &random) < 8
                ? Int.random(in: 0..<40, using: &random)
                : Int.random(in: 0..<today, using: &random)
            let date = try Self.start.adding(days: today - back)
            let habitID = Int64.random(in: 1...3, using: &random)
            if Bool.random(using: &random) {
                index.record(habitID: habitID, date: date)
            } else {
                index.remove(habitID: habitID, date: date)
            }
            if step % 40 == 19, var habit = index.habits.randomElement(using: &random) {
                // A rename keeps the checkpoint: the summaries below must still match.
                habit.name += "'"
                index.upsert(habit)
            }
            if step % 40 == 39, let habit = index.habits.randomElement(using: &random) {
                // Archiving moves completions out of their habit's window, and back.
                let archived = habit.archivedOn == nil ? try Self.start.adding(days: today - 20) : nil
                index.upsert(
                    try Habit(id: habit.id, name: habit.name, createdOn: habit.createdOn, archivedOn: archived)
                )
            }
            if Int.random(in: 0..<5, using: &random) == 0 { today += Int.random(in: 1...3, using: &random) }
            let asOf = try Self.start.adding(
                days: Int.random(in: 0..<8, using: &random) == 0 ? Int.random(in: 0...today + 5, using: &random) : today
            )
            let threshold = thresholds[step / 100 % 2]
            // From the checkpoint: a step per day with completions since it, never the whole history.
            let (summary, checkpoint, resumed) = try Self.checkedSummary(
                index,
                threshold: threshold,
                asOf: asOf,
                steps: (perDay: 1, fixed: 0),
                "seed \(seed), step \(step)"
            )
            if resumed { startedFromCheckpoint += 1 }
            if step % 50 == 0 {
                let reference = StreakReferenceTests.reference(
                    index,
                    threshold: threshold,
                    asOf: asOf,
                    from: Self.start
                )
                #expect(summary == reference)
            }
            if let checkpoint { index.keepStreakCheckpoint(checkpoint) }
        }
        // Most summaries must have started from a checkpoint, or this test proves nothing.
        #expect(startedFromCheckpoint > 200, "only \(startedFromCheckpoint) of 400 summaries started from a checkpoint")
    }

    @Test(
        "the walk that bridges rest days: random completions, skips, rest periods and schedules",
        arguments: 1...8
    )
    func randomChangesBridgingRestDays(seed: UInt64) throws {
        var random = SplitMix64(seed: seed)
        var habits = try (1...3).map { id in
            try Habit(id: Int64(id), name: "h\(id)", createdOn: Self.start.adding(days: id * 20))
        }
        // Habit 3 is expected on weekdays only, from its second month.
        habits[2].schedule = HabitSchedule([
            ScheduleEntry(effectiveFrom: try Self.start.adding(days: 90), weekdays: try WeekdaySet(numbers: 2...6))
        ])
        var today = 500
        let completions = (0..<700).map { _ in
            Completion(
                habitID: Int64.random(in: 1...3, using: &random),
                date: try! Self.start.adding(days: Int.random(in: 0..<today, using: &random))
            )
        }
        let rest = try RestPeriod(from: Self.start.adding(days: 200), to: Self.start.adding(days: 206))
        var index = CompletionIndex(habits: habits, completions: completions, restPeriods: [rest])
        var startedFromCheckpoint = 0
        for step in 0..<200 {
            let back =
                Int.random(in: 0..<10, using: &random) < 8
                ? Int.random(in: 0..<40, using: &random) : Int.random(in: 0..<today, using: &random)
            let date = try Self.start.adding(days: today - back)
            let habitID = Int64.random(in: 1...3, using: &random)
            switch Int.random(in: 0..<4, using: &random) {
            case 0: index.skip(habitID: habitID, date: date)
            case 1: index.unskip(habitID: habitID, date: date)
            case 2: index.record(habitID: habitID, date: date)
            default: index.remove(habitID: habitID, date: date)
            }
            if step % 50 == 25 {
                // A rest period added near today, or far back; then the first one only again.
                let from = try Self.start.adding(days: today - Int.random(in: 0..<today, using: &random))
                index.replaceRestPeriods(
                    step % 100 == 25 ? [rest, try RestPeriod(from: from, to: from.adding(days: 3))] : [rest]
                )
            }
            if step % 50 == 45, var habit = index.habits.randomElement(using: &random) {
                habit.schedule = HabitSchedule([
                    ScheduleEntry(
                        effectiveFrom: try Self.start.adding(days: today - 30),
                        weekdays: try WeekdaySet(numbers: [1, 7, Int.random(in: 2...6, using: &random)])
                    )
                ])
                index.upsert(habit)
            }
            if Int.random(in: 0..<5, using: &random) == 0 { today += Int.random(in: 1...3, using: &random) }
            let asOf = try Self.start.adding(
                days: Int.random(in: 0..<8, using: &random) == 0
                    ? Int.random(in: 0...today + 5, using: &random) : today
            )
            let threshold = step < 100 ? StreakThreshold.atLeastOneHabit : try StreakThreshold(minPercent: 60)
            #expect(index.hasSchedulesSkipsOrRest)
            // From the checkpoint: the days since it (a step each, and one per completion and skip on
            // them, the habits and schedule entries passed once), never the whole history.
            let (_, checkpoint, resumed) = try Self.checkedSummary(
                index,
                threshold: threshold,
                asOf: asOf,
                steps: (perDay: 8, fixed: 20),
                "seed \(seed), step \(step)"
            )
            if resumed { startedFromCheckpoint += 1 }
            if let checkpoint { index.keepStreakCheckpoint(checkpoint) }
        }
        #expect(startedFromCheckpoint > 100, "only \(startedFromCheckpoint) of 200 summaries started from a checkpoint")
    }

    @Test("a skip or a rest period before the checkpoint of the bridging walk drops it")
    func bridgingInvalidation() throws {
        let habit = Habit(id: 1, name: "read", createdOn: Self.start)
        let today = try Self.start.adding(days: 1_000)
        let gap = try today.adding(days: -300)
        // Done every day but one, 300 days ago; an old rest period makes the walk bridge rest days.
        let days = try (0...1_000).map { try Self.start.adding(days: $0) }.filter { $0 != gap }
        let old = try RestPeriod(from: Self.start.adding(days: -10), to: Self.start.adding(days: -5))
        var index = CompletionIndex(
            habits: [habit],
            completions: days.map { Completion(habitID: 1, date: $0) },
            restPeriods: [old]
        )
        #expect(index.hasSchedulesSkipsOrRest)
        let (before, taken) = Self.walk(index, asOf: today)
        #expect(before.current == 300 && before.longest == 700)
        index.keepStreakCheckpoint(try #require(taken))

        // Skipping the gap's habit makes it a rest day: the two runs join.
        index.skip(habitID: 1, date: gap)
        #expect(index.streakCheckpoint == nil)
        let (joined, again) = Self.walk(index, asOf: today)
        #expect(joined.current == 1_000 && joined.longest == 1_000)
        index.keepStreakCheckpoint(try #require(again))
        index.unskip(habitID: 1, date: gap)
        #expect(index.streakCheckpoint == nil)
        #expect(Self.walk(index, asOf: today).summary == before)

        // So does a rest period over it.
        index.keepStreakCheckpoint(try #require(Self.walk(index, asOf: today).checkpoint))
        index.replaceRestPeriods([old, try RestPeriod(from: gap, to: gap)])
        #expect(index.streakCheckpoint == nil)
        #expect(Self.walk(index, asOf: today).summary == joined)

        // A skip after the checkpoint keeps it, and the summary still sees it.
        index.keepStreakCheckpoint(try #require(Self.walk(index, asOf: today).checkpoint))
        index.remove(habitID: 1, date: try today.adding(days: -3))
        index.skip(habitID: 1, date: try today.adding(days: -3))
        #expect(index.streakCheckpoint != nil)
        #expect(Self.walk(index, asOf: today).summary.current == 999)
    }

    @Test("a checkpoint of the other walk is not used, and an index keeps only its own, latest one")
    func otherWalkAndStaleCheckpoints() throws {
        let habit = Habit(id: 1, name: "read", createdOn: Self.start)
        let today = try Self.start.adding(days: 400)
        // Done every day but the one just before the checkpoint's boundary.
        let gap = try today.adding(days: -(StreakCheckpoint.reach + 1))
        let days = try (0...400).map { try Self.start.adding(days: $0) }.filter { $0 != gap }
        var index = CompletionIndex(habits: [habit], completions: days.map { Completion(habitID: 1, date: $0) })
        let fast = try #require(Self.walk(index, asOf: today).checkpoint)
        #expect(!fast.bridging)
        index.keepStreakCheckpoint(fast)
        // A skip after the boundary keeps the checkpoint but turns the summaries to the walk that
        // bridges rest days, which must not resume from the other walk's state (whose run had not
        // yet seen the gap).
        index.skip(habitID: 1, date: try today.adding(days: -3))
        #expect(index.streakCheckpoint == fast)
        let bridged = Self.walk(index, asOf: today)
        #expect(bridged.summary == StreakCalculator.summary(try Self.walkedFromTheStart(index), asOf: today))
        #expect(bridged.summary.current == StreakCheckpoint.reach)

        // A checkpoint taken before a change of the index is refused, even of a day after it.
        let taken = try #require(bridged.checkpoint)
        index.record(habitID: 1, date: today)
        index.remove(habitID: 1, date: today)
        index.keepStreakCheckpoint(taken)
        #expect(index.streakCheckpoint == fast, "a checkpoint of an older state is refused")
        // One of the index as it is is kept; then one reaching less far (a past day's) is not.
        let current = try #require(Self.walk(index, asOf: today).checkpoint)
        let earlier = try #require(Self.walk(index, asOf: try today.adding(days: -100)).checkpoint)
        #expect(earlier.boundary < current.boundary)
        index.keepStreakCheckpoint(current)
        #expect(index.streakCheckpoint == current)
        index.keepStreakCheckpoint(earlier)
        #expect(index.streakCheckpoint == current, "an earlier reach does not replace a later one")
    }

    /// The summary as of `asOf` from the index's checkpoint when it is usable, which must equal
    /// the same index's walked from the first day and, when it resumed, take at most
    /// `steps.perDay` steps a day since the checkpoint plus `steps.fixed`.
    /// - Returns: the summary, the checkpoint it offers, and whether it resumed.
    static func checkedSummary(
        _ index: CompletionIndex,
        threshold: StreakThreshold,
        asOf: CivilDate,
        steps bound: (perDay: Int, fixed: Int),
        _ note: String
    ) throws -> (summary: StreakSummary, checkpoint: StreakCheckpoint?, resumed: Bool) {
        var steps = 0
        let (summary, checkpoint) = StreakCalculator.summaryAndCheckpoint(
            index,
            threshold: threshold,
            asOf: asOf,
            steps: &steps
        )
        var resumed = false
        if let kept = index.streakCheckpoint, kept.isUsable(for: threshold, asOf: asOf) {
            resumed = true
            #expect(steps <= (asOf.dayNumber - kept.boundary + 1) * bound.perDay + bound.fixed, "\(note)")
        }
        let fresh = try walkedFromTheStart(index)
        let expected = StreakCalculator.summary(fresh, threshold: threshold, asOf: asOf)
        #expect(summary == expected, "\(note), as of \(asOf), \(threshold)")
        return (summary, checkpoint, resumed)
    }

    /// The summary as of `asOf` and the checkpoint it offers.
    static func walk(
        _ index: CompletionIndex,
        asOf: CivilDate,
        threshold: StreakThreshold = .atLeastOneHabit
    ) -> (summary: StreakSummary, checkpoint: StreakCheckpoint?) {
        StreakCalculator.summaryAndCheckpoint(index, threshold: threshold, asOf: asOf)
    }

    @Test("a checkpoint is kept by changes after its day and dropped by changes before it")
    func invalidation() throws {
        let habit = Habit(id: 1, name: "read", createdOn: Self.start)
        let today = try Self.start.adding(days: 3_650)
        let daily = try (0...3_650).map { Completion(habitID: 1, date: try Self.start.adding(days: $0)) }
        var index = CompletionIndex(habits: [habit], completions: daily)
        let (summary, taken) = Self.walk(index, asOf: today)
        #expect(summary.current == 3_651 && summary.longest == 3_651)
        let checkpoint = try #require(taken)
        #expect(checkpoint.boundaryDate == (try today.adding(days: -32)))
        index.keepStreakCheckpoint(checkpoint)
        #expect(index.streakCheckpoint == checkpoint)
        #expect(index == CompletionIndex(habits: [habit], completions: daily), "a checkpoint is not part of the value")

        // A summary of the same day, or of an earlier one, takes no newer checkpoint.
        #expect(Self.walk(index, asOf: today).checkpoint == nil)
        let past = Self.walk(index, asOf: try today.adding(days: -200))
        #expect(past.checkpoint == nil && past.summary.current == 3_451)
        // Another threshold takes its own.
        let strict = try StreakThreshold(minPercent: 100)
        #expect(Self.walk(index, asOf: today, threshold: strict).checkpoint != nil)

        index.remove(habitID: 1, date: today)
        index.remove(habitID: 1, date: try today.adding(days: -32))
        #expect(index.streakCheckpoint == checkpoint, "days on or after its boundary keep it")
        let broken = StreakCalculator.summary(index, threshold: .atLeastOneHabit, asOf: today)
        #expect(broken.current == 31 && broken.todayPending && broken.longest == 3_618)

        index.remove(habitID: 1, date: try today.adding(days: -33))
        #expect(index.streakCheckpoint == nil, "a day before its boundary drops it")
        index.keepStreakCheckpoint(checkpoint)
        #expect(index.streakCheckpoint == nil, "a checkpoint of other days is refused")

        let again = try #require(Self.walk(index, asOf: today).checkpoint)
        index.keepStreakCheckpoint(again)
        index.record(habitID: 1, date: try today.adding(days: -1_000))
        #expect(index.streakCheckpoint == nil, "recording a day before it drops it")
        let third = try #require(Self.walk(index, asOf: today).checkpoint)
        index.keepStreakCheckpoint(third)
        index.upsert(Habit(id: 1, name: "read a book", createdOn: Self.start))
        #expect(index.streakCheckpoint == third, "a rename keeps it")
        index.replaceHabits([Habit(id: 1, name: "read", createdOn: Self.start)])
        #expect(index.streakCheckpoint == third, "habits read again with only a new name keep it")
        index.upsert(try Habit(id: 1, name: "read", createdOn: Self.start, archivedOn: try today.adding(days: -30)))
        #expect(index.streakCheckpoint == nil, "a change of the habits drops it")
    }
}
