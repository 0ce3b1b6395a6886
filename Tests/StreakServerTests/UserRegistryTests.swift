import Foundation
import StreakCore
import StreakStorage
import Synchronization
import Testing

@testable import StreakServer

/// The user registry under a budget, and the state's bookkeeping that keeps other servers'
/// changes from undoing this server's writes.
@Suite("User registry and budget")
struct UserRegistryTests {
    static let limits = ResponseCacheLimits(entries: 64, bytes: 1 << 20, entryBytes: 256 << 10)

    /// A SQLite store with `count` users, each with a habit and `days` completions.
    final class Fixture: @unchecked Sendable {
        let directory = NSTemporaryDirectory() + "streakd-registry-\(UUID().uuidString)"
        let store: SQLiteStore
        var users: [UserID] = []

        init(count: Int, days: Int = 60) throws {
            store = try SQLiteStore(directory: directory)
            for index in 0..<count {
                let user = try store.createUser(name: "u\(index)").user.id
                users.append(user)
                let created = try write(.createHabit(name: "h", createdOn: day("2024-01-01")), for: user)
                guard case .habit(let habit) = created else { throw StorageError(.corrupt, "not a habit") }
                let changes = (0..<days).map {
                    CompletionChange.record(habitID: habit.id, date: try! day("2024-01-01").adding(days: $0))
                }
                _ = try write(.completions(changes), for: user)
            }
        }

        deinit {
            store.close()
            try? FileManager.default.removeItem(atPath: directory)
        }

        func write(_ write: StoreWrite, for user: UserID) throws -> StoreWriteResult {
            let result = Mutex<Result<StoreWriteResult, StorageError>?>(nil)
            store.submit(write, for: user) { value in result.withLock { $0 = value } }
            while result.withLock({ $0 }) == nil { usleep(1_000) }
            return try result.withLock { $0! }.get()
        }
    }

    @Test("past the budget the least recently used go first; pinned and watched users stay")
    func leastRecentlyUsed() throws {
        let fixture = try Fixture(count: 6)
        // One user's bytes, measured with no budget.
        let unbounded = UserRegistry(store: fixture.store, cacheLimits: Self.limits)
        let one = try unbounded.state(for: fixture.users[0]).countedBytes
        #expect(one > 1_000 && unbounded.meter.bytes == one)

        let watched = Mutex<Set<UserID>>([])
        let registry = UserRegistry(store: fixture.store, cacheLimits: Self.limits, budget: one * 3 + one / 2)
        registry.setHooks(isWatched: { id in watched.withLock { $0.contains(id) } }, changedWhileLoading: { _, _ in })
        for user in fixture.users { _ = try registry.state(for: user) }
        registry.evict()
        var held = Set(registry.loadedStates().map(\.id))
        #expect(held == Set(fixture.users.suffix(3)), "the three most recent")
        #expect(registry.meter.bytes <= one * 3 + one / 2)
        #expect(registry.usage.evicted == 3 && registry.usage.held == 3)

        // The first user used again becomes the most recent; a pinned and a watched one stay.
        let pinned = try registry.state(for: fixture.users[1], pin: true)
        watched.withLock { _ = $0.insert(fixture.users[2]) }
        _ = try registry.state(for: fixture.users[2])
        _ = try registry.state(for: fixture.users[0])
        registry.evict()
        held = Set(registry.loadedStates().map(\.id))
        #expect(held.isSuperset(of: [fixture.users[0], fixture.users[1], fixture.users[2]]))
        #expect(!pinned.isRetired)
        pinned.unpin()
        watched.withLock { $0.removeAll() }
        _ = try registry.state(for: fixture.users[5])
        registry.evict()
        held = Set(registry.loadedStates().map(\.id))
        #expect(!held.contains(fixture.users[1]) && pinned.isRetired && !pinned.pin())
        // What the registry counts is what the states held count.
        #expect(registry.meter.bytes == registry.loadedStates().reduce(0) { $0 + $1.countedBytes })
    }

    @Test("a budget smaller than one user keeps nobody idle, and loads still answer")
    func tinyBudget() throws {
        let fixture = try Fixture(count: 3)
        let registry = UserRegistry(store: fixture.store, cacheLimits: Self.limits, budget: 1)
        for _ in 0..<3 {
            for user in fixture.users {
                let state = try registry.state(for: user)
                // (The pass the load scheduled may not have run yet.)
                registry.evict()
                #expect(state.isRetired)
                #expect(state.snapshot(now: Date()).data.index.daysWithCompletions.count == 60)
            }
        }
        #expect(registry.usage.held == 0 && registry.meter.bytes == 0)
        #expect(registry.usage.loads == 9)
    }

    @Test("a load for a new Watch that the store cannot answer is reported, not swallowed")
    func ensureLoadedReportsAFailedLoad() throws {
        let fixture = try Fixture(count: 1, days: 1)
        let registry = UserRegistry(store: fixture.store, cacheLimits: Self.limits)
        fixture.store.close()
        let failed = DispatchSemaphore(value: 0)
        let reported = Mutex<String?>(nil)
        registry.ensureLoaded(fixture.users[0], on: DispatchQueue(label: "load")) { error in
            reported.withLock { $0 = "\(error)" }
            failed.signal()
        }
        #expect(failed.wait(timeout: .now() + 30) == .success)
        #expect(reported.withLock { $0 } != nil)
        #expect(registry.loadedState(for: fixture.users[0]) == nil)
    }

    @Test("a change reported while a user loads is handed on once it is registered; one for nobody is ignored")
    func changesWhileLoading() throws {
        let fixture = try Fixture(count: 1)
        let handed = Mutex<[(UserID, ChangedData)]>([])
        let registry = UserRegistry(store: fixture.store, cacheLimits: Self.limits)
        registry.setHooks(
            isWatched: { _ in false },
            changedWhileLoading: { id, change in handed.withLock { $0.append((id, change)) } }
        )
        #expect(registry.route(fixture.users[0], ChangedData(days: [day("2024-01-02")])) == nil)
        #expect(registry.route(999, .all) == nil)
        _ = try registry.state(for: fixture.users[0])
        #expect(handed.withLock { $0.isEmpty })
        #expect(registry.route(fixture.users[0], .all) != nil)
    }

    @Test("rows read from the store do not undo a write of this server in flight or applied since the read began")
    func ownWritesWin() throws {
        let habit = Habit(id: 1, name: "a", createdOn: day("2024-01-01"))
        let state = UserState(
            id: 1,
            data: UserData(habits: [habit], completions: [], settings: .defaults),
            cacheLimits: Self.limits
        )
        let (d1, d2, d3) = (day("2024-01-02"), day("2024-01-03"), day("2024-01-04"))
        // An own write of d1 is in flight; another of d2 finishes after the read began.
        state.beginOwnWrite(.days([d1.dayNumber]))
        state.beginOwnWrite(.days([d2.dayNumber]))
        let mark = try #require(state.beginExternalRead())
        _ = state.update(now: Date()) { $0.apply([.record(habitID: 1, date: d2)]) }
        state.finishOwnWrite(.days([d2.dayNumber]))
        let rows = ExternalRows(
            days: [d1, d2, d3],
            dayRows: DayRows(
                completions: [Completion(habitID: 1, date: d1), Completion(habitID: 1, date: d3)],
                skips: []
            ),
            habitsAndSettings: nil
        )
        let applied = state.applyExternal(rows, mark: mark)
        #expect(applied.changedDays == [d3])
        #expect(applied.unapplied == ChangedData(days: [d1, d2]))
        let data = state.snapshot(now: Date()).data
        #expect(data.index.state(habitID: 1, on: d1) == .nothing)
        #expect(data.index.state(habitID: 1, on: d2) == .done)
        #expect(data.index.state(habitID: 1, on: d3) == .done)

        // Read again once the write of d1 is through: now both apply.
        _ = state.update(now: Date()) { $0.apply([.record(habitID: 1, date: d1)]) }
        state.finishOwnWrite(.days([d1.dayNumber]))
        let again = try #require(state.beginExternalRead())
        let second = state.applyExternal(
            ExternalRows(days: [d1, d2], dayRows: DayRows(completions: [], skips: []), habitsAndSettings: nil),
            mark: again
        )
        #expect(second.unapplied.isEmpty && second.changedDays == [d1, d2])

        // A habit write in flight keeps the habits; days still apply.
        state.beginOwnWrite(.habitsOrSettings)
        let third = try #require(state.beginExternalRead())
        let profile = HabitsAndSettings(
            habits: [Habit(id: 1, name: "renamed", createdOn: day("2024-01-01"))],
            restPeriods: [],
            settings: .defaults
        )
        let result = state.applyExternal(
            ExternalRows(days: [d3], dayRows: DayRows(completions: [], skips: []), habitsAndSettings: profile),
            mark: third
        )
        // The days were read with the habits: they wait for them.
        #expect(result.unapplied == ChangedData(days: [d3], habitsOrSettings: true) && result.changedDays.isEmpty)
        #expect(state.snapshot(now: Date()).data.index.habit(id: 1)?.name == "a")
        state.finishOwnWrite(.habitsOrSettings)
        // A retired state takes nothing.
        #expect(state.retire() == false)
        state.unpin()
        state.unpin()
        state.unpin()
        #expect(state.retire() && state.beginExternalRead() == nil)
    }
}

/// A date from "YYYY-MM-DD".
private func day(_ text: String) -> CivilDate { try! CivilDate(parsing: text) }
