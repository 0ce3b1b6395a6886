import StreakCore
import StreakTestSupport
import Testing

@testable import StreakStorage

/// The per-user rest-period limit (`RestPeriodLimit`) and the per-habit schedule limit
/// (`ScheduleLimit`) in the store: the unary writes and ImportData, and two PostgreSQL servers
/// adding at once.
@Suite struct DataLimitTests {
    /// `count` one-day rest periods from 2000-01-01, noted `prefix0`, `prefix1`, ...
    static func periods(_ count: Int, prefix: String = "r") throws -> [RestPeriodRecord] {
        try (0..<count).map {
            let from = try day("2000-01-01").adding(days: $0)
            return RestPeriodRecord(id: 0, period: try RestPeriod(from: from, to: from), note: "\(prefix)\($0)")
        }
    }

    /// `count` every-day schedule entries a week apart from `first`.
    static func entries(_ count: Int, from first: String = "2024-01-01") throws -> [ScheduleEntry] {
        try (0..<count).map { ScheduleEntry(effectiveFrom: try day(first).adding(days: 7 * $0), weekdays: .everyDay) }
    }

    @Test("AddRestPeriod and ImportData stop at the rest-period limit", arguments: Engine.available)
    func restPeriods(engine: Engine) throws {
        let fixture = try StoreFixture(engine)
        let user = try fixture.store.createUser(name: "u").user.id
        let other = try fixture.store.createUser(name: "v").user.id
        var batch = ImportBatch(habits: [], today: day("2024-02-01"))
        batch.restPeriods = try Self.periods(RestPeriodLimit.perUser - 1)
        let filled = try HabitLimitTests.imported(fixture.write(.importData(batch), for: user))
        #expect(filled.restPeriodsAdded == RestPeriodLimit.perUser - 1 && filled.errors.isEmpty)
        let period = try RestPeriod(from: day("2024-03-01"), to: day("2024-03-02"))
        _ = try fixture.write(.addRestPeriod(period, note: "last"), for: user).get()
        #expect(throws: StorageError(.limitReached, RestPeriodLimit.reached(count: RestPeriodLimit.perUser))) {
            try fixture.write(.addRestPeriod(period, note: "one more"), for: user).get()
        }
        #expect(RestPeriodLimit.reached(count: 1000).contains("at most 1000 rest periods"))
        _ = try fixture.write(.addRestPeriod(period, note: "theirs"), for: other).get()

        // An import: the stored ones matched, two new ones refused, a habit and settings applied.
        var more = ImportBatch(
            habits: [HabitHistory(name: "h", completions: [day("2024-01-02")])],
            today: day("2024-02-01")
        )
        more.restPeriods = try Self.periods(3, prefix: "r") + Self.periods(2, prefix: "new")
        more.settings = SettingsChange(timeZone: "Europe/Berlin")
        let outcome = try HabitLimitTests.imported(fixture.write(.importData(more), for: user))
        #expect(outcome.restPeriodsAdded == 0 && outcome.habitsCreated == 1 && outcome.completionsAdded == 1)
        #expect(outcome.settingsChanged)
        #expect(outcome.errors.count == 2)
        #expect(
            outcome.errors.allSatisfy {
                $0.field == "rest_periods" && $0.message == RestPeriodLimit.reached(count: 1000)
            }
        )
        #expect(try fixture.store.restPeriods(of: user).count == RestPeriodLimit.perUser)
        // A removal makes room for one.
        let last = try #require(try fixture.store.restPeriods(of: user).first { $0.note == "last" })
        _ = try fixture.write(.removeRestPeriod(id: last.id), for: user).get()
        let again = try HabitLimitTests.imported(fixture.write(.importData(more), for: user))
        #expect(again.restPeriodsAdded == 1 && again.errors.map(\.date) == [day("2000-01-02")])
    }

    @Test(
        "SetHabitSchedule and ImportData stop at the schedule limit; replacing an entry is allowed",
        arguments: Engine.available
    )
    func schedules(engine: Engine) throws {
        let fixture = try StoreFixture(engine)
        let user = try fixture.store.createUser(name: "u").user.id
        let habit = try fixture.habit("h", for: user)
        var batch = ImportBatch(
            habits: [HabitHistory(name: "h", schedule: try Self.entries(ScheduleLimit.perHabit - 1))],
            today: day("2024-02-01")
        )
        let filled = try HabitLimitTests.imported(fixture.write(.importData(batch), for: user))
        #expect(filled.schedulesSet == ScheduleLimit.perHabit - 1 && filled.errors.isEmpty)
        _ = try fixture.write(.setSchedule(habitID: habit.id, weekdays: .everyDay, from: day("2030-01-01")), for: user)
            .get()
        #expect(throws: StorageError(.limitReached, ScheduleLimit.reached(count: ScheduleLimit.perHabit))) {
            try fixture.write(.setSchedule(habitID: habit.id, weekdays: .everyDay, from: day("2031-01-01")), for: user)
                .get()
        }
        let monday = try WeekdaySet([.monday])
        guard
            case .habit(let replaced) = try fixture.write(
                .setSchedule(habitID: habit.id, weekdays: monday, from: day("2030-01-01")),
                for: user
            ).get()
        else { throw StorageError(.corrupt, "not a habit") }
        #expect(replaced.schedule.entries.count == ScheduleLimit.perHabit)
        #expect(replaced.schedule.entries.last?.weekdays == monday)

        // An import: the stored entries matched, one replaced, two new ones refused; another
        // habit's entries are its own; the completions applied.
        batch.habits = [
            HabitHistory(
                name: "h",
                schedule: try Self.entries(3)
                    + [ScheduleEntry(effectiveFrom: day("2024-01-01"), weekdays: monday)]
                    + Self.entries(2, from: "2040-01-01"),
                completions: [day("2024-01-02")]
            ),
            HabitHistory(name: "g", schedule: try Self.entries(ScheduleLimit.perHabit)),
        ]
        let outcome = try HabitLimitTests.imported(fixture.write(.importData(batch), for: user))
        #expect(outcome.schedulesSet == 1 + ScheduleLimit.perHabit && outcome.completionsAdded == 1)
        #expect(outcome.errors.map(\.date) == [day("2040-01-01"), day("2040-01-08")])
        #expect(
            outcome.errors.allSatisfy {
                $0.field == "schedule" && $0.habitIndex == 0
                    && $0.message == ScheduleLimit.reached(count: ScheduleLimit.perHabit)
            }
        )
        let stored = try fixture.store.habits(of: user)
        #expect(stored.map(\.schedule.entries.count) == [ScheduleLimit.perHabit, ScheduleLimit.perHabit])
        #expect(stored.first?.schedule.entries.first?.weekdays == monday)
    }

    @Test(
        "two PostgreSQL stores adding one user's rest periods and one habit's entries at once stop exactly at the limits",
        .enabled(if: PostgresTestDatabase.serverURL != nil || PostgresTestDatabase.required)
    )
    func concurrentServers() throws {
        let fixture = try StoreFixture(.postgres)
        let second = try fixture.reopen()
        defer { second.close() }
        let user = try fixture.store.createUser(name: "u").user.id
        let habit = try fixture.habit("h", for: user)
        var batch = ImportBatch(
            habits: [HabitHistory(name: "h", schedule: try Self.entries(ScheduleLimit.perHabit - 10))],
            today: day("2024-02-01")
        )
        batch.restPeriods = try Self.periods(RestPeriodLimit.perUser - 10)
        _ = try HabitLimitTests.imported(fixture.write(.importData(batch), for: user))
        // First AddRestPeriod alone (no import's lock to share), then with the rest. Each store:
        // writes submitted without waiting, so that each writer's transactions overlap the
        // other's; together they ask for 20 + 60 rest periods where 20 fit and 40 schedule
        // entries where 10 fit.
        let alone = try (0..<20).map { number in
            let period = try RestPeriod(from: day("2024-03-01"), to: day("2024-03-01"))
            return ([fixture.store, second][number % 2], StoreWrite.addRestPeriod(period, note: "alone\(number)"))
        }
        let early = alone.map { store, write in
            let box = ResultBox()
            store.submit(write, for: user) { box.set($0) }
            return box
        }
        let earlyAdded = early.filter { (try? $0.wait().get()) != nil }.count
        let afterAlone = try fixture.store.restPeriods(of: user).count
        #expect(earlyAdded == 10 && afterAlone == RestPeriodLimit.perUser)
        var boxes: [ResultBox] = early
        for round in 0..<10 {
            for (number, store) in [fixture.store, second].enumerated() {
                let tag = "\(number)-\(round)"
                let period = try RestPeriod(from: day("2024-03-01"), to: day("2024-03-01"))
                let from = try day("2030-01-01").adding(days: 7 * (2 * round + number))
                var more = ImportBatch(
                    habits: [
                        HabitHistory(
                            name: "h",
                            schedule: [ScheduleEntry(effectiveFrom: try from.adding(days: 1000), weekdays: .everyDay)]
                        )
                    ],
                    today: day("2024-02-01")
                )
                more.restPeriods = try Self.periods(2, prefix: "i\(tag)-")
                let writes: [StoreWrite] = [
                    .addRestPeriod(period, note: "a\(tag)"),
                    .setSchedule(habitID: habit.id, weekdays: .everyDay, from: from),
                    .importData(more),
                ]
                for write in writes {
                    let box = ResultBox()
                    store.submit(write, for: user) { box.set($0) }
                    boxes.append(box)
                }
            }
        }
        var added = 0
        var refused = 0
        for box in boxes {
            switch box.wait() {
            case .success(.restPeriod), .success(.habit): added += 1
            case .success(.imported(let outcome)):
                added += outcome.restPeriodsAdded + outcome.schedulesSet
                refused += outcome.errors.count
            case .failure(let error) where error.code == .limitReached: refused += 1
            case let other: Issue.record("unexpected \(other)")
            }
        }
        #expect(added == 20 && refused == 100)
        #expect(try fixture.store.restPeriods(of: user).count == RestPeriodLimit.perUser)
        #expect(try fixture.store.habits(of: user).first?.schedule.entries.count == ScheduleLimit.perHabit)
    }
}
