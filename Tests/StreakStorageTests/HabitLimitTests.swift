import Foundation
import StreakCore
import StreakTestSupport
import Testing

@testable import StreakStorage

/// The per-user habit limit (`HabitLimit`) in the store: CreateHabit and ImportData, archived
/// habits included, and two PostgreSQL servers creating one user's habits at once.
@Suite struct HabitLimitTests {
    /// An import of new habits named `prefix0`, `prefix1`, ...
    static func batch(_ count: Int, prefix: String = "h") -> ImportBatch {
        ImportBatch(
            habits: (0..<count).map { HabitHistory(name: "\(prefix)\($0)", completions: [day("2024-01-02")]) },
            today: day("2024-02-01")
        )
    }

    static func imported(_ result: Result<StoreWriteResult, StorageError>) throws -> ImportOutcome {
        guard case .imported(let outcome) = try result.get() else { throw StorageError(.corrupt, "not an import") }
        return outcome
    }

    @Test(
        "CreateHabit is refused at the limit, archived habits counted; a delete makes room",
        arguments: Engine.available
    )
    func createHabit(engine: Engine) throws {
        let fixture = try StoreFixture(engine)
        let user = try fixture.store.createUser(name: "u").user.id
        let other = try fixture.store.createUser(name: "v").user.id
        let filled = try Self.imported(fixture.write(.importData(Self.batch(HabitLimit.perUser - 1)), for: user))
        #expect(filled.habitsCreated == HabitLimit.perUser - 1 && filled.errors.isEmpty)
        let last = try fixture.habit("last", for: user)
        _ = try fixture.write(.archiveHabit(id: last.id, on: day("2024-01-05")), for: user).get()
        #expect(throws: StorageError(.limitReached, HabitLimit.reached(count: HabitLimit.perUser))) {
            try fixture.write(.createHabit(name: "one more", createdOn: day("2024-01-01")), for: user).get()
        }
        #expect(StorageError.Code.limitReached.status == .resourceExhausted)
        #expect(HabitLimit.reached(count: 1000).contains("at most 1000 habits, archived ones included"))
        // Another user's habits are their own.
        _ = try fixture.habit("theirs", for: other)
        _ = try fixture.write(.deleteHabit(id: last.id), for: user).get()
        _ = try fixture.habit("room again", for: user)
        #expect(try fixture.store.habits(of: user).count == HabitLimit.perUser)
    }

    @Test(
        "an import creates habits up to the limit and refuses the rest, alone; again, it changes nothing",
        arguments: Engine.available
    )
    func importPastTheLimit(engine: Engine) throws {
        let fixture = try StoreFixture(engine)
        let user = try fixture.store.createUser(name: "u").user.id
        _ = try Self.imported(fixture.write(.importData(Self.batch(990, prefix: "old")), for: user))
        // 5 of the stored habits matched, 20 new ones of which 10 fit, a rest period and settings.
        var batch = Self.batch(20, prefix: "new")
        batch.habits.insert(
            contentsOf: (0..<5).map { HabitHistory(name: "old\($0)", completions: [day("2024-01-03")]) },
            at: 0
        )
        batch.restPeriods = [
            RestPeriodRecord(id: 0, period: try RestPeriod(from: day("2024-01-10"), to: day("2024-01-12")), note: "")
        ]
        let outcome = try Self.imported(fixture.write(.importData(batch), for: user))
        #expect(outcome.habitsMatched == 5 && outcome.habitsCreated == 10)
        #expect(outcome.completionsAdded == 15 && outcome.restPeriodsAdded == 1)
        #expect(outcome.errors.map(\.habitIndex) == Array(15..<25))
        #expect(outcome.errors.allSatisfy { $0.field == "name" && $0.message == HabitLimit.reached(count: 1000) })
        #expect(
            outcome.habits.map { $0 != nil } == Array(repeating: true, count: 15) + Array(repeating: false, count: 10)
        )
        let names = Set(try fixture.store.habits(of: user).map(\.name))
        #expect(names.count == HabitLimit.perUser)
        #expect(names.isSuperset(of: (0..<10).map { "new\($0)" }) && !names.contains("new10"))

        let again = try Self.imported(fixture.write(.importData(batch), for: user))
        #expect(again.habitsMatched == 15 && again.habitsCreated == 0 && again.completionsAdded == 0)
        #expect(again.errors == outcome.errors)
        #expect(try fixture.store.habits(of: user).count == HabitLimit.perUser)
    }

    @Test("populate refuses a user it would take past the limit, and keeps nothing", arguments: Engine.available)
    func populate(engine: Engine) throws {
        let fixture = try StoreFixture(engine)
        let user = try fixture.store.createUser(name: "u").user.id
        let habits = (0...HabitLimit.perUser).map {
            PopulatedHabit(name: "p\($0)", createdOn: day("2024-01-01"), completions: [])
        }
        #expect {
            try fixture.store.populate([(user: user, habits: habits)])
        } throws: { ($0 as? StorageError)?.code == .limitReached }
        #expect(try fixture.store.habits(of: user).isEmpty)
        try fixture.store.populate([(user: user, habits: Array(habits.dropLast()))])
        #expect(try fixture.store.habits(of: user).count == HabitLimit.perUser)
    }

    @Test(
        "two PostgreSQL stores creating one user's habits at once stop exactly at the limit",
        .enabled(if: PostgresTestDatabase.serverURL != nil || PostgresTestDatabase.required)
    )
    func concurrentServers() throws {
        let fixture = try StoreFixture(.postgres)
        let second = try fixture.reopen()
        defer { second.close() }
        let user = try fixture.store.createUser(name: "u").user.id
        _ = try Self.imported(fixture.write(.importData(Self.batch(HabitLimit.perUser - 40, prefix: "old")), for: user))
        // Each store: creations and imports submitted without waiting, so that each writer's
        // transactions overlap the other's; together they ask for 120 habits where 40 fit.
        var boxes: [ResultBox] = []
        for round in 0..<20 {
            for (number, store) in [fixture.store, second].enumerated() {
                let create = ResultBox()
                store.submit(.createHabit(name: "c\(number)-\(round)", createdOn: day("2024-01-01")), for: user) {
                    create.set($0)
                }
                let batch = ImportBatch(
                    habits: [HabitHistory(name: "i\(number)-\(round)-a"), HabitHistory(name: "i\(number)-\(round)-b")],
                    today: day("2024-02-01")
                )
                let importing = ResultBox()
                store.submit(.importData(batch), for: user) { importing.set($0) }
                boxes += [create, importing]
            }
        }
        var created = 0
        var refused = 0
        for box in boxes {
            switch box.wait() {
            case .success(.habit): created += 1
            case .success(.imported(let outcome)):
                created += outcome.habitsCreated
                refused += outcome.errors.count
            case .failure(let error) where error.code == .limitReached: refused += 1
            case let other: Issue.record("unexpected \(other)")
            }
        }
        #expect(created == 40 && refused == 80)
        #expect(try fixture.store.habits(of: user).count == HabitLimit.perUser)
    }
}
