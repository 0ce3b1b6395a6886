import StreakCore
import Testing

@testable import StreakCore

/// A history kept as plain sets, judged day by day by brute force, straight from the rules.
struct ReferenceHistory {
    static let start = day("2024-01-01")
    var habits: [Habit]
    var done: Set<Completion>
    var skipped: Set<Skip>
    var rest: [RestPeriod]

    /// Whether habit `h` is expected on `date` by its schedule: the entry with the latest date on or before it.
    static func scheduled(_ habit: Habit, _ date: CivilDate) -> Bool {
        let entry = habit.schedule.entries.filter { $0.effectiveFrom <= date }.max {
            $0.effectiveFrom < $1.effectiveFrom
        }
        return entry.map { $0.weekdays.contains(date.weekday) } ?? true
    }

    /// completed, due, active of `date`.
    func counts(_ date: CivilDate) -> (completed: Int, due: Int, active: Int) {
        let active = habits.filter { $0.isActive(on: date) }
        let resting = rest.contains { $0.contains(date) }
        var completed = 0
        var due = 0
        for habit in active {
            let isDone = done.contains(Completion(habitID: habit.id, date: date))
            let isSkipped = skipped.contains(Skip(habitID: habit.id, date: date))
            if isDone { completed += 1 }
            if isDone || (Self.scheduled(habit, date) && !isSkipped && !resting) { due += 1 }
        }
        return (completed, due, active.count)
    }

    /// The streak summary by the rules' definition of runs over rest days.
    func summary(threshold: StreakThreshold, asOf: CivilDate) -> StreakSummary {
        enum Kind { case contributing, rest, breaking }
        var kinds: [(Int, Kind)] = []
        for number in Self.start.dayNumber...asOf.dayNumber {
            let c = counts(CivilDate(validDayNumber: number))
            let kind: Kind =
                threshold.contributes(completed: c.completed, active: c.due)
                ? .contributing : (c.active > 0 && c.due == 0 ? .rest : .breaking)
            kinds.append((number, kind))
        }
        // Runs: maximal sequences of contributing days with only rest days between them.
        var runs: [[Int]] = []
        var open = false
        for (number, kind) in kinds {
            switch kind {
            case .contributing:
                if open { runs[runs.count - 1].append(number) } else { runs.append([number]) }
                open = true
            case .rest: break
            case .breaking: open = false
            }
        }
        let longest = runs.reversed().max { $0.count < $1.count }
        // Current: c's run when every day strictly between c and as of is a rest day.
        var current: [Int]? = nil
        if let c = kinds.last(where: { $0.1 == .contributing })?.0,
            kinds.allSatisfy({ $0.0 <= c || $0.0 >= asOf.dayNumber || $0.1 == .rest })
        {
            current = runs.first { $0.contains(c) }
        }
        let date = { (number: Int) in CivilDate(validDayNumber: number) }
        return StreakSummary(
            asOf: asOf,
            current: current?.count ?? 0,
            currentStart: current.map { date($0[0]) },
            longest: longest?.count ?? 0,
            longestStart: longest.map { date($0[0]) },
            longestEnd: longest.map { date($0[$0.count - 1]) },
            todayPending: current.map { $0.last! != asOf.dayNumber } ?? false
        )
    }
}

/// Streaks, day records and heatmaps with random schedules, skips and rest periods against a
/// brute-force walk; a stateful index changed step by step against a stateless one built at once.
@Suite("Rest days against a brute-force reference")
struct RestDayReferenceTests {
    static func randomDate(_ random: inout SplitMix64, within days: Int = 100) -> CivilDate {
        try! ReferenceHistory.start.adding(days: Int.random(in: 0..<days, using: &random))
    }

    static func randomWeekdays(_ random: inout SplitMix64) -> WeekdaySet {
        try! WeekdaySet(
            numbers: (1...7).filter { _ in Int.random(in: 0..<3, using: &random) == 0 } + [
                Int.random(in: 1...7, using: &random)
            ]
        )
    }

    static func randomRest(_ random: inout SplitMix64) -> RestPeriod {
        let from = randomDate(&random)
        return try! RestPeriod(from: from, to: from.adding(days: Int.random(in: 0..<6, using: &random)))
    }

    static func check(
        _ data: CompletionIndex,
        _ reference: ReferenceHistory,
        asOf: CivilDate,
        _ context: String
    ) throws {
        for threshold in [StreakThreshold.atLeastOneHabit, try StreakThreshold(minPercent: 50)] {
            let summary = StreakCalculator.summary(data, threshold: threshold, asOf: asOf)
            #expect(summary == reference.summary(threshold: threshold, asOf: asOf), "\(context), \(threshold)")
        }
        let options = HeatmapOptions(asOf: asOf, from: ReferenceHistory.start, to: asOf)
        for cell in try HeatmapBuilder.build(data, options: options).weeks.flatMap(\.cells).compactMap({ $0 }) {
            let expected = reference.counts(cell.date)
            let record = data.record(on: cell.date)
            #expect(
                cell.completed == expected.completed && cell.due == expected.due && cell.active == expected.active,
                "\(context), cell \(cell.date)"
            )
            #expect(record.due == expected.due && record.completed == expected.completed, "\(context), \(cell.date)")
        }
    }

    @Test("random schedules, skips and rest periods, changed step by step", arguments: 1...20)
    func randomHistories(seed: UInt64) throws {
        var random = SplitMix64(seed: seed)
        var habits = (1...3).map { id in
            let created = Self.randomDate(&random, within: 20)
            let archived =
                Bool.random(using: &random) ? try! created.adding(days: Int.random(in: 0..<90, using: &random)) : nil
            var habit = try! Habit(id: Int64(id), name: "h\(id)", createdOn: created, archivedOn: archived)
            for _ in 0..<Int.random(in: 0...2, using: &random) {
                habit.schedule.set(Self.randomWeekdays(&random), from: Self.randomDate(&random))
            }
            return habit
        }
        let pair = { (random: inout SplitMix64) in (Int64.random(in: 1...3, using: &random), Self.randomDate(&random)) }
        let completions = (0..<70).map { _ in pair(&random) }.map { Completion(habitID: $0.0, date: $0.1) }
        let skips = (0..<25).map { _ in pair(&random) }.map { Skip(habitID: $0.0, date: $0.1) }
        let rest = (0..<Int.random(in: 0...2, using: &random)).map { _ in Self.randomRest(&random) }
        var data = CompletionIndex(habits: habits, completions: completions, skips: skips, restPeriods: rest)
        let done = Set(completions)
        var reference = ReferenceHistory(
            habits: habits,
            done: done,
            skipped: Set(skips.filter { !done.contains(Completion(habitID: $0.habitID, date: $0.date)) }),
            rest: rest
        )
        try Self.check(data, reference, asOf: Self.randomDate(&random, within: 105), "seed \(seed), built")

        for step in 0..<40 {
            let (id, date) = pair(&random)
            let action = HabitDayAction.allCases.randomElement(using: &random)!
            data.apply(action, habitID: id, date: date)
            let completion = Completion(habitID: id, date: date)
            let skip = Skip(habitID: id, date: date)
            switch action {
            case .complete:
                reference.done.insert(completion)
                reference.skipped.remove(skip)
            case .skip:
                reference.skipped.insert(skip)
                reference.done.remove(completion)
            case .uncomplete: reference.done.remove(completion)
            case .unskip: reference.skipped.remove(skip)
            }
            if step % 10 == 3 {
                let period = Self.randomRest(&random)
                data.addRestPeriod(period)
                reference.rest.append(period)
            }
            if step % 10 == 7, let period = reference.rest.first {
                data.removeRestPeriod(period)
                reference.rest.removeFirst()
            }
            if step % 10 == 5 {
                let slot = Int.random(in: 0..<3, using: &random)
                let weekdays = Self.randomWeekdays(&random)
                let from = Self.randomDate(&random)
                try data.setSchedule(habitID: habits[slot].id, weekdays: weekdays, from: from)
                habits[slot].schedule.set(weekdays, from: from)
                reference.habits = habits
            }
            let asOf = Self.randomDate(&random, within: 105)
            try Self.check(data, reference, asOf: asOf, "seed \(seed), step \(step), as of \(asOf)")
        }

        // The stateless path: one index built at once from the final lists answers the same.
        let stateless = CompletionIndex(
            habits: habits,
            completions: Array(reference.done),
            skips: Array(reference.skipped),
            restPeriods: reference.rest
        )
        for offset in stride(from: 0, to: 105, by: 7) {
            let asOf = try ReferenceHistory.start.adding(days: offset)
            let options = HeatmapOptions(asOf: asOf, from: ReferenceHistory.start, to: asOf, accessibilityLabels: true)
            #expect(
                try HeatmapBuilder.build(stateless, options: options) == HeatmapBuilder.build(data, options: options)
            )
            #expect(StreakCalculator.summary(stateless, asOf: asOf) == StreakCalculator.summary(data, asOf: asOf))
        }
    }

    @Test("without schedules, skips or rest periods, the general walk agrees with the fast path", arguments: 1...10)
    func generalPathAgrees(seed: UInt64) throws {
        var random = SplitMix64(seed: seed)
        let habits = (1...3).map { id in
            let created = Self.randomDate(&random, within: 20)
            let archived =
                Bool.random(using: &random) ? try! created.adding(days: Int.random(in: 0..<90, using: &random)) : nil
            return try! Habit(id: Int64(id), name: "h\(id)", createdOn: created, archivedOn: archived)
        }
        let completions = (0..<60).map { _ in
            Completion(habitID: Int64.random(in: 1...3, using: &random), date: Self.randomDate(&random))
        }
        let data = CompletionIndex(habits: habits, completions: completions)
        #expect(!data.hasSchedulesSkipsOrRest)
        var fast = DaySweep(data)
        var general = DueSweep(data)
        for number in ReferenceHistory.start.dayNumber..<(ReferenceHistory.start.dayNumber + 110) {
            #expect(fast.dayCounts(onDayNumber: number) == general.dayCounts(onDayNumber: number))
        }
        for threshold in [StreakThreshold.atLeastOneHabit, try StreakThreshold(minPercent: 50)] {
            for offset in 0..<110 {
                let asOf = try ReferenceHistory.start.adding(days: offset)
                var steps = 0
                let walked = StreakCalculator.summaryBridgingRestDays(
                    data,
                    threshold: threshold,
                    asOf: asOf,
                    steps: &steps
                )
                #expect(
                    walked == StreakCalculator.summary(data, threshold: threshold, asOf: asOf),
                    "seed \(seed), \(asOf)"
                )
            }
        }
    }
}
