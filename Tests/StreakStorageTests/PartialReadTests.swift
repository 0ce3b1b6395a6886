import Foundation
import StreakCore
import Testing

@testable import StreakStorage

/// The reads a server makes after another server changed a user: some days' rows, the habits
/// and settings, or every row; each agrees with the whole-user reads.
@Suite("Reading some of a user's rows")
struct PartialReadTests {
    @Test("dayRows reads exactly the completions and skips of the days named", arguments: Engine.available)
    func dayRows(engine: Engine) throws {
        let fixture = try StoreFixture(engine)
        let user = try fixture.store.createUser(name: "u").user.id
        let other = try fixture.store.createUser(name: "other").user.id
        let read = try fixture.habit("Read", for: user)
        let run = try fixture.habit("Run", for: user)
        let theirs = try fixture.habit("Theirs", for: other)
        var changes: [CompletionChange] = []
        for offset in 0..<40 {
            let date = try day("2024-01-01").adding(days: offset)
            if offset % 2 == 0 { changes.append(.record(habitID: read.id, date: date)) }
            if offset % 3 == 0 { changes.append(.record(habitID: run.id, date: date)) }
            if offset % 5 == 1 { changes.append(.skip(habitID: run.id, date: date)) }
        }
        _ = try fixture.write(.completions(changes), for: user).get()
        _ = try fixture.write(.completions([.record(habitID: theirs.id, date: day("2024-01-01"))]), for: other).get()

        let days = [day("2024-01-01"), day("2024-01-02"), day("2024-01-07"), day("2024-03-01")]
        let rows = try fixture.store.dayRows(of: user, on: days)
        let wanted = Set(days)
        #expect(
            Set(rows.completions) == Set(try fixture.store.completions(of: user).filter { wanted.contains($0.date) })
        )
        #expect(Set(rows.skips) == Set(try fixture.store.skips(of: user).filter { wanted.contains($0.date) }))
        #expect(rows.completions.count == 3 && rows.skips.count == 2)
        #expect(try fixture.store.dayRows(of: user, on: []) == DayRows(completions: [], skips: []))

        // Several users' habit days at once: exactly those done and those skipped.
        let keys =
            days.flatMap { date in [read.id, run.id].map { HabitDay(user: user, habitID: $0, date: date) } }
            + [
                HabitDay(user: other, habitID: theirs.id, date: day("2024-01-01")),
                HabitDay(user: other, habitID: theirs.id, date: day("2024-01-02")),
            ]
        let found = try fixture.store.habitDays(keys)
        #expect(
            Set(found.done)
                == Set(rows.completions.map { HabitDay(user: user, habitID: $0.habitID, date: $0.date) })
                .union([HabitDay(user: other, habitID: theirs.id, date: day("2024-01-01"))])
        )
        #expect(Set(found.skipped) == Set(rows.skips.map { HabitDay(user: user, habitID: $0.habitID, date: $0.date) }))
        let none = try fixture.store.habitDays([])
        #expect(none.done.isEmpty && none.skipped.isEmpty)

        let all = try fixture.store.allDayRows(of: user)
        #expect(Set(all.completions) == Set(try fixture.store.completions(of: user)))
        #expect(Set(all.skips) == Set(try fixture.store.skips(of: user)))
    }

    @Test("habitsAndSettings reads habits with schedules, rest periods and settings", arguments: Engine.available)
    func habitsAndSettings(engine: Engine) throws {
        let fixture = try StoreFixture(engine)
        let user = try fixture.store.createUser(name: "u").user.id
        let gym = try WeekdaySet([.monday, .friday])
        _ = try fixture.write(.createHabit(name: "Gym", createdOn: day("2024-01-01"), schedule: gym), for: user).get()
        _ = try fixture.habit("Read", for: user)
        _ = try fixture.write(
            .addRestPeriod(try RestPeriod(from: day("2024-02-01"), to: day("2024-02-03")), note: "away"),
            for: user
        ).get()
        var settings = UserSettings.defaults
        settings.timeZone = "Europe/Berlin"
        settings.minPercent = 50
        _ = try fixture.write(.updateSettings(settings), for: user).get()
        let profile = try fixture.store.habitsAndSettings(of: user)
        #expect(profile.habits == (try fixture.store.habits(of: user)))
        #expect(profile.habits.first?.schedule.entries.first?.weekdays == gym)
        #expect(profile.restPeriods == (try fixture.store.restPeriods(of: user)))
        #expect(profile.settings == (try fixture.store.settings(of: user)))
        #expect(profile.settings.minPercent == 50)
    }
}
