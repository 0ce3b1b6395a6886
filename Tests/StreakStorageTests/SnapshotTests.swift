import Dispatch
import Foundation
import StreakCore
import Synchronization
import Testing

@testable import StreakStorage

/// `snapshot(of:)` (what loading a user reads, in one statement) and `populate` (the bulk import
/// of new habits) against the store's other paths.
@Suite struct SnapshotTests {
    /// Completions as (habit id, day number), sorted: the order a snapshot gives them in is free.
    static func pairs(_ days: [(habitID: Int64, dayNumbers: [Int])]) -> [[Int64]] {
        days.flatMap { group in group.dayNumbers.map { [group.habitID, Int64($0)] } }.sorted {
            $0.lexicographicallyPrecedes($1)
        }
    }

    @Test(
        "a snapshot holds exactly what the five reads return, and nothing of another user",
        arguments: Engine.available
    )
    func snapshotEqualsReads(engine: Engine) throws {
        let fixture = try StoreFixture(engine)
        let user = try fixture.store.createUser(name: "u").user.id
        let other = try fixture.store.createUser(name: "o").user.id
        #expect(try fixture.store.snapshot(of: user).habits.isEmpty)
        let gym = try fixture.habit("Gym", for: user, from: "2024-01-01")
        let read = try fixture.habit("Read", for: user, from: "2024-02-01")
        let archived = try fixture.habit("Old", for: user, from: "2024-01-01")
        _ = try fixture.write(
            .setSchedule(habitID: gym.id, weekdays: try WeekdaySet([.monday, .friday]), from: day("2024-03-01")),
            for: user
        ).get()
        _ = try fixture.write(.archiveHabit(id: archived.id, on: day("2024-04-01")), for: user).get()
        var changes: [CompletionChange] = []
        for offset in stride(from: 0, to: 200, by: 3) {
            changes.append(.record(habitID: gym.id, date: try day("2024-01-01").adding(days: offset)))
            changes.append(.record(habitID: read.id, date: try day("2024-02-01").adding(days: offset / 2)))
        }
        changes.append(.skip(habitID: read.id, date: day("2024-02-02")))
        changes.append(.skip(habitID: gym.id, date: day("2024-01-02")))
        _ = try fixture.write(.completions(changes), for: user).get()
        _ = try fixture.write(
            .addRestPeriod(try RestPeriod(from: day("2024-05-01"), to: day("2024-05-09")), note: "away"),
            for: user
        ).get()
        _ = try fixture.write(
            .addRestPeriod(try RestPeriod(from: day("2024-03-01"), to: day("2024-03-02")), note: ""),
            for: user
        ).get()
        _ = try fixture.write(
            .changeSettings(SettingsChange(timeZone: "Europe/Berlin", weekStart: .sunday, minPercent: .set(40))),
            for: user
        ).get()
        // Another user's rows stay out.
        let theirs = try fixture.habit("Gym", for: other)
        _ = try fixture.write(.completions([.record(habitID: theirs.id, date: day("2024-01-05"))]), for: other).get()

        let snapshot = try fixture.store.snapshot(of: user)
        #expect(snapshot.habits == (try fixture.store.habits(of: user)))
        #expect(snapshot.habits.map(\.name) == ["Gym", "Read", "Old"])
        #expect(snapshot.habits[0].schedule.entries.count == 1)
        #expect(snapshot.habits[2].archivedOn == day("2024-04-01"))
        let completions = try fixture.store.completions(of: user)
        #expect(completions.count == 133)  // 67 + 67, less the day the skip of "Read" took over
        #expect(
            Self.pairs(snapshot.completionDays)
                == completions.map { [$0.habitID, Int64($0.date.dayNumber)] }.sorted {
                    $0.lexicographicallyPrecedes($1)
                }
        )
        #expect(Set(snapshot.skips) == Set(try fixture.store.skips(of: user)))
        #expect(snapshot.skips.count == 2)
        #expect(snapshot.restPeriods == (try fixture.store.restPeriods(of: user)))
        #expect(snapshot.restPeriods.map(\.note) == ["", "away"])
        #expect(snapshot.settings == (try fixture.store.settings(of: user)))
        #expect(snapshot.settings.minPercent == 40)
        #expect(snapshot.settings.weekStart == .sunday)
        #expect(try fixture.store.snapshot(of: other).habits.map(\.id) == [theirs.id])
    }

    @Test(
        "populate stores what an import of the same new habits stores; a bad record keeps nothing",
        arguments: Engine.available
    )
    func populateEqualsImport(engine: Engine) throws {
        let fixture = try StoreFixture(engine)
        let bulk = try fixture.store.createUser(name: "bulk").user.id
        let imported = try fixture.store.createUser(name: "imported").user.id
        let start = day("2025-01-01")
        var habits: [PopulatedHabit] = []
        for index in 0..<3 {
            let offsets: [Int] = (0..<100).filter { ($0 * (index + 3)) % 7 < 4 }.map { $0 * 2 } + [4]
            let days = try offsets.map { (offset: Int) throws -> CivilDate in try start.adding(days: offset) }
            habits.append(PopulatedHabit(name: "habit \(index)", createdOn: start, completions: days))
        }
        try fixture.store.populate([(user: bulk, habits: habits)])
        let batch = ImportBatch(
            habits: habits.map {
                HabitHistory(name: $0.name, createdOn: $0.createdOn, completions: $0.completions)
            },
            today: day("2025-12-31")
        )
        _ = try fixture.write(.importData(batch), for: imported).get()
        let left = try fixture.store.snapshot(of: bulk)
        let right = try fixture.store.snapshot(of: imported)
        #expect(left.habits.map(\.name) == right.habits.map(\.name))
        #expect(left.habits.map(\.createdOn) == right.habits.map(\.createdOn))
        let ids = Dictionary(uniqueKeysWithValues: zip(left.habits.map(\.id), right.habits.map(\.id)))
        #expect(!Self.pairs(left.completionDays).isEmpty)
        #expect(
            Self.pairs(left.completionDays.map { (habitID: ids[$0.habitID]!, dayNumbers: $0.dayNumbers) })
                == Self.pairs(right.completionDays)
        )
        // Habit ids stay unique in the store: the next habit created gets a new one.
        let next = try fixture.habit("later", for: imported)
        #expect(!left.habits.map(\.id).contains(next.id))

        // A completion before its habit's first day: refused, nothing of the call kept.
        let other = try fixture.store.createUser(name: "other").user.id
        let bad = PopulatedHabit(name: "bad", createdOn: start, completions: [try start.adding(days: -1)])
        #expect(throws: StorageError.self) {
            try fixture.store.populate([(user: other, habits: habits), (user: bulk, habits: [bad])])
        }
        #expect(try fixture.store.habits(of: other).isEmpty)
        #expect(try fixture.store.habits(of: bulk).count == 3)
    }

    @Test(
        "loads from several threads at once read through several connections and all answer; after close every read fails"
    )
    func concurrentReads() throws {
        let fixture = try StoreFixture(.sqlite)
        #expect(SQLiteStore.readerCount >= 2)
        let created = try fixture.store.createUsers(names: (0..<16).map { "user\($0)" })
        let start = day("2025-01-01")
        try fixture.store.populate(
            created.enumerated().map { index, entry in
                let days = (0...index).map { try! start.adding(days: $0 * 3) }
                return (user: entry.user.id, habits: [PopulatedHabit(name: "h", createdOn: start, completions: days)])
            }
        )
        let store = fixture.store
        let failures = Mutex<[String]>([])
        DispatchQueue.concurrentPerform(iterations: 8) { worker in
            for round in 0..<50 {
                let index = (worker + round) % created.count
                do {
                    guard try store.authenticate(token: created[index].token) == created[index].user.id else {
                        throw StorageError(.corrupt, "wrong user for token \(index)")
                    }
                    let days = try store.snapshot(of: created[index].user.id).completionDays.flatMap(\.dayNumbers)
                    if days.count != index + 1 { throw StorageError(.corrupt, "user \(index): \(days.count) days") }
                } catch {
                    failures.withLock { $0.append("\(error)") }
                }
            }
        }
        #expect(failures.withLock { $0 } == [])
        store.close()
        #expect(throws: StorageError.self) { try store.snapshot(of: created[0].user.id) }
        #expect(throws: StorageError.self) { try store.authenticate(token: created[0].token) }
        store.close()  // twice: nothing happens
    }
}
