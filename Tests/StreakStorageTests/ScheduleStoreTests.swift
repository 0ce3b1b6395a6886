import Foundation
import StreakCore
import Testing

@testable import StreakStorage

@Suite("Schedules, skips, rest periods and the day start in the store")
struct ScheduleStoreTests {
    @Test(
        "schedules: created with the habit, changed from a date, replaced on the same date, durable",
        arguments: Engine.available
    )
    func schedules(engine: Engine) throws {
        let fixture = try StoreFixture(engine)
        let user = try fixture.store.createUser(name: "u").user.id
        let gym = try WeekdaySet([.monday, .wednesday, .friday])
        let created = try fixture.write(
            .createHabit(name: "Gym", createdOn: day("2024-01-01"), schedule: gym),
            for: user
        ).get()
        guard case .habit(let habit) = created else { throw StorageError(.corrupt, "not a habit") }
        #expect(habit.schedule.entries == [ScheduleEntry(effectiveFrom: day("2024-01-01"), weekdays: gym)])
        let weekends = try WeekdaySet([.saturday, .sunday])
        _ = try fixture.write(.setSchedule(habitID: habit.id, weekdays: weekends, from: day("2024-03-01")), for: user)
            .get()
        // Same date again: replaces that entry.
        let again = try fixture.write(
            .setSchedule(habitID: habit.id, weekdays: .everyDay, from: day("2024-03-01")),
            for: user
        ).get()
        guard case .habit(let changed) = again else { throw StorageError(.corrupt, "not a habit") }
        #expect(changed.schedule.entries.map(\.effectiveFrom) == [day("2024-01-01"), day("2024-03-01")])
        #expect(changed.schedule.weekdays(on: day("2024-03-05")) == .everyDay)
        // Renaming keeps the schedule in the answer.
        guard case .habit(let renamed) = try fixture.write(.renameHabit(id: habit.id, name: "Lift"), for: user).get()
        else { throw StorageError(.corrupt, "not a habit") }
        #expect(renamed.schedule == changed.schedule)
        let reopened = try fixture.reopen()
        defer { reopened.close() }
        #expect(try reopened.habits(of: user).first?.schedule == changed.schedule)
        // An unknown habit: not found, nothing written.
        let missing = fixture.write(.setSchedule(habitID: 999, weekdays: gym, from: day("2024-01-01")), for: user)
        #expect(throws: StorageError.self) { try missing.get() }
    }

    @Test("skips: done, skipped or nothing per habit and day, idempotent, validated", arguments: Engine.available)
    func skips(engine: Engine) throws {
        let fixture = try StoreFixture(engine)
        let user = try fixture.store.createUser(name: "u").user.id
        let habit = try fixture.habit("Read", for: user, from: "2024-01-01")
        func apply(_ change: CompletionChange) throws -> Bool {
            guard case .completions(let changed) = try fixture.write(.completions([change]), for: user).get()
            else { throw StorageError(.corrupt, "not completions") }
            return changed[0]
        }
        let date = day("2024-01-05")
        #expect(try apply(.record(habitID: habit.id, date: date)))
        // Skipping a done day removes the completion.
        #expect(try apply(.skip(habitID: habit.id, date: date)))
        #expect(try fixture.store.completions(of: user).isEmpty)
        #expect(try fixture.store.skips(of: user) == [Skip(habitID: habit.id, date: date)])
        #expect(try !apply(.skip(habitID: habit.id, date: date)))
        // Recording on a skipped day withdraws the skip (the trigger).
        #expect(try apply(.record(habitID: habit.id, date: date)))
        #expect(try fixture.store.skips(of: user).isEmpty)
        #expect(try apply(.skip(habitID: habit.id, date: date)))
        #expect(try apply(.unskip(habitID: habit.id, date: date)))
        #expect(try !apply(.unskip(habitID: habit.id, date: date)))
        #expect(try fixture.store.skips(of: user).isEmpty && fixture.store.completions(of: user).isEmpty)
        // Before the habit existed: invalid, and the batch's earlier change is not written either.
        let early = fixture.write(
            .completions([.skip(habitID: habit.id, date: date), .skip(habitID: habit.id, date: day("2023-12-31"))]),
            for: user
        )
        #expect(throws: StorageError.self) { try early.get() }
        #expect(try fixture.store.skips(of: user).isEmpty)
        #expect(throws: StorageError.self) {
            try fixture.write(.completions([.skip(habitID: 77, date: date)]), for: user).get()
        }
        // Durable.
        #expect(try apply(.skip(habitID: habit.id, date: date)))
        let reopened = try fixture.reopen()
        defer { reopened.close() }
        #expect(try reopened.skips(of: user) == [Skip(habitID: habit.id, date: date)])
    }

    @Test("rest periods: ids, notes, listing order, removal, errors", arguments: Engine.available)
    func restPeriods(engine: Engine) throws {
        let fixture = try StoreFixture(engine)
        let user = try fixture.store.createUser(name: "u").user.id
        let other = try fixture.store.createUser(name: "v").user.id
        func add(_ from: String, _ to: String, _ note: String, for owner: UserID) throws -> RestPeriodRecord {
            let period = try RestPeriod(from: day(from), to: day(to))
            guard case .restPeriod(let record) = try fixture.write(.addRestPeriod(period, note: note), for: owner).get()
            else { throw StorageError(.corrupt, "not a rest period") }
            return record
        }
        let summer = try add("2024-07-01", "2024-07-14", "Urlaub 🏖", for: user)
        let spring = try add("2024-03-01", "2024-03-01", "", for: user)
        let theirs = try add("2024-07-01", "2024-07-02", "", for: other)
        #expect(Set([summer.id, spring.id, theirs.id]).count == 3)
        #expect(try fixture.store.restPeriods(of: user) == [spring, summer])
        // Another user's period is not found, and stays.
        #expect(throws: StorageError.self) { try fixture.write(.removeRestPeriod(id: theirs.id), for: user).get() }
        guard case .restPeriod(let removed) = try fixture.write(.removeRestPeriod(id: summer.id), for: user).get()
        else { throw StorageError(.corrupt, "not a rest period") }
        #expect(removed == summer)
        #expect(try fixture.store.restPeriods(of: user) == [spring])
        #expect(try fixture.store.restPeriods(of: other) == [theirs])
        let long = String(repeating: "x", count: 201)
        #expect(throws: StorageError.self) { try add("2024-01-01", "2024-01-02", long, for: user) }
        #expect(throws: StorageError.self) { try add("2024-01-01", "2024-01-02", "a\u{0}b", for: user) }
        #expect(try fixture.store.restPeriods(of: user) == [spring])
        let reopened = try fixture.reopen()
        defer { reopened.close() }
        #expect(try reopened.restPeriods(of: user) == [spring])
    }

    @Test("the day start is stored and merged like the other settings", arguments: Engine.available)
    func dayStart(engine: Engine) throws {
        let fixture = try StoreFixture(engine)
        let user = try fixture.store.createUser(name: "u").user.id
        #expect(try fixture.store.settings(of: user).dayStart == .midnight)
        let three = try DayStart(minutes: 180)
        _ = try fixture.write(.changeSettings(SettingsChange(dayStart: three)), for: user).get()
        _ = try fixture.write(.changeSettings(SettingsChange(timeZone: "Europe/Berlin")), for: user).get()
        let settings = try fixture.store.settings(of: user)
        #expect(settings.dayStart == three && settings.timeZone == "Europe/Berlin")
    }
}
