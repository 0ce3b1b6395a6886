import Foundation
import StreakCore
import StreakTestSupport
import Testing

@testable import StreakStorage

/// The behaviour every store shares, on each engine (`Engine.available`).
@Suite("Stores")
struct StoreTests {
    @Test("habits are created, renamed and archived for their user only", arguments: Engine.available)
    func habitLifecycle(engine: Engine) throws {
        let fixture = try StoreFixture(engine)
        let alice = try fixture.store.createUser(name: "alice").user.id
        let bob = try fixture.store.createUser(name: "bob").user.id
        let read = try fixture.habit("Read 📚", for: alice)
        #expect(read.id == 1)
        #expect(try fixture.habit("Run", for: bob).id == 2)  // ids are unique per store
        _ = try fixture.write(.renameHabit(id: read.id, name: "Read more"), for: alice).get()
        _ = try fixture.write(.archiveHabit(id: read.id, on: day("2024-06-01")), for: alice).get()
        let expected = try Habit(id: 1, name: "Read more", createdOn: day("2024-01-01"), archivedOn: day("2024-06-01"))
        #expect(try fixture.store.habits(of: alice) == [expected])
        #expect(try fixture.store.habits(of: bob).map(\.name) == ["Run"])
    }

    @Test(
        "another user's habit is not found",
        arguments: Engine.available,
        [
            StoreWrite.renameHabit(id: 1, name: "mine now"),
            .archiveHabit(id: 1, on: day("2024-02-01")),
            .completions([.record(habitID: 1, date: day("2024-02-01"))]),
            .completions([.remove(habitID: 1, date: day("2024-02-01"))]),
        ]
    )
    func isolation(engine: Engine, write: StoreWrite) throws {
        let fixture = try StoreFixture(engine)
        let alice = try fixture.store.createUser(name: "alice").user.id
        let bob = try fixture.store.createUser(name: "bob").user.id
        _ = try fixture.habit("Read", for: alice)
        #expect(throws: StorageError(.notFound, "no habit with id 1")) { try fixture.write(write, for: bob).get() }
        #expect(try fixture.store.habits(of: alice).map(\.name) == ["Read"])
    }

    @Test("recording twice counts once; removing twice changes once", arguments: Engine.available)
    func idempotency(engine: Engine) throws {
        let fixture = try StoreFixture(engine)
        let user = try fixture.store.createUser(name: "u").user.id
        let habit = try fixture.habit("Read", for: user)
        let date = day("2024-03-05")
        let changes: [CompletionChange] = [
            .record(habitID: habit.id, date: date), .record(habitID: habit.id, date: date),
            .remove(habitID: habit.id, date: date), .remove(habitID: habit.id, date: date),
            .record(habitID: habit.id, date: date),
        ]
        let result = try fixture.write(.completions(changes), for: user).get()
        #expect(result == .completions(changed: [true, false, true, false, true]))
        #expect(try fixture.store.completions(of: user) == [Completion(habitID: habit.id, date: date)])
    }

    @Test(
        "a completion outside the habit's active window is refused, and the whole batch with it",
        arguments: Engine.available,
        ["2023-12-31", "2024-06-01", "2024-07-01"]
    )
    func outsideWindow(engine: Engine, date: String) throws {
        let fixture = try StoreFixture(engine)
        let user = try fixture.store.createUser(name: "u").user.id
        let habit = try fixture.habit("Read", for: user)
        _ = try fixture.write(.archiveHabit(id: habit.id, on: day("2024-06-01")), for: user).get()
        let changes: [CompletionChange] = [
            .record(habitID: habit.id, date: day("2024-02-02")), .record(habitID: habit.id, date: day(date)),
        ]
        let result = fixture.write(.completions(changes), for: user)
        #expect { try result.get() } throws: { ($0 as? StorageError)?.code == .invalidArgument }
        #expect(try fixture.store.completions(of: user).isEmpty)
    }

    @Test(
        "habit names are 1 to 200 characters without control characters",
        arguments: Engine.available,
        ["", String(repeating: "x", count: 201), "tab\there", "new\nline"]
    )
    func badNames(engine: Engine, name: String) throws {
        let fixture = try StoreFixture(engine)
        let user = try fixture.store.createUser(name: "u").user.id
        let result = fixture.write(.createHabit(name: name, createdOn: day("2024-01-01")), for: user)
        #expect { try result.get() } throws: { ($0 as? StorageError)?.code == .invalidArgument }
        #expect(try fixture.store.habits(of: user).isEmpty)
    }

    @Test("settings default, update and survive reopening", arguments: Engine.available)
    func settings(engine: Engine) throws {
        let fixture = try StoreFixture(engine)
        let user = try fixture.store.createUser(name: "u").user.id
        #expect(try fixture.store.settings(of: user) == .defaults)
        let settings = UserSettings(timeZone: "Europe/Berlin", locale: "de_DE", weekStart: .sunday, minPercent: 60)
        _ = try fixture.write(.updateSettings(settings), for: user).get()
        let reopened = try fixture.reopen()
        #expect(try reopened.settings(of: user) == settings)
        reopened.close()
        #expect(throws: StorageError.self) {
            try fixture.write(.updateSettings(UserSettings(minPercent: 101)), for: user).get()
        }
    }

    @Test(
        "a stored min_percent out of range is corrupt data, not quietly the default threshold",
        arguments: Engine.available
    )
    func storedMinPercentOutOfRange(engine: Engine) throws {
        let fixture = try StoreFixture(engine)
        let user = try fixture.store.createUser(name: "u").user.id
        _ = try fixture.write(.updateSettings(UserSettings(minPercent: 60)), for: user).get()
        let update = "UPDATE settings SET min_percent = 250 WHERE user_id = \(user)"
        if let url = fixture.databaseURL {
            try PostgresTestDatabase.psql(url, update)
        } else {
            let connection = try SQLiteConnection(path: fixture.sqlite.path)
            defer { connection.close() }
            try connection.execute(update)
        }
        for (name, read) in [
            ("settings", { _ = try fixture.store.settings(of: user) }),
            ("snapshot", { _ = try fixture.store.snapshot(of: user) }),
            ("habitsAndSettings", { _ = try fixture.store.habitsAndSettings(of: user) }),
        ] as [(String, () throws -> Void)] {
            do {
                try read()
                Issue.record("\(name) read an out-of-range min_percent")
            } catch {
                #expect((error as? StorageError)?.code == .corrupt, "\(name): \(error)")
            }
        }
    }

    @Test("a settings change merges with the stored settings inside the write", arguments: Engine.available)
    func settingsChangeMerges(engine: Engine) throws {
        let fixture = try StoreFixture(engine)
        let user = try fixture.store.createUser(name: "u").user.id
        _ = try fixture.write(.changeSettings(SettingsChange(timeZone: "Europe/Berlin")), for: user).get()
        let result = try fixture.write(.changeSettings(SettingsChange(minPercent: .set(70))), for: user).get()
        let expected = UserSettings(timeZone: "Europe/Berlin", minPercent: 70)
        #expect(result == .settings(expected))
        #expect(try fixture.store.settings(of: user) == expected)
        _ = try fixture.write(.changeSettings(SettingsChange(weekStart: .sunday, minPercent: .clear)), for: user).get()
        #expect(
            try fixture.store.settings(of: user) == UserSettings(timeZone: "Europe/Berlin", weekStart: .sunday)
        )
    }

    @Test(
        "in a group commit a failing write fails alone, and a failing batch keeps none of its rows",
        arguments: Engine.available
    )
    func failuresStayAlone(engine: Engine) throws {
        let fixture = try StoreFixture(engine)
        let user = try fixture.store.createUser(name: "u").user.id
        let habit = try fixture.habit("Read", for: user, from: "2024-01-01")
        let before = fixture.store.committedTransactions
        let rounds = 20
        var boxes: [[ResultBox]] = []
        for round in 0..<rounds {
            let good = try day("2024-02-01").adding(days: round * 3)
            let batched = try day("2024-02-02").adding(days: round * 3)
            let writes: [StoreWrite] = [
                .completions([.record(habitID: habit.id, date: good)]),
                .completions([.record(habitID: 999, date: good)]),  // no such habit: fails alone
                // Its second change is before the habit existed: the first must not stay either.
                .completions([
                    .record(habitID: habit.id, date: batched), .record(habitID: habit.id, date: day("2023-12-31")),
                ]),
                .completions([.remove(habitID: habit.id, date: day("2024-01-01"))]),
            ]
            // Submitted back to back, without waiting, so that they share commits.
            boxes.append(writes.map { fixture.submit($0, for: user) })
        }
        for round in boxes {
            #expect((try? round[0].wait().get()) == .completions(changed: [true]))
            #expect(throws: StorageError.self) { try round[1].wait().get() }
            #expect(throws: StorageError.self) { try round[2].wait().get() }
            #expect((try? round[3].wait().get()) == .completions(changed: [false]))
        }
        #expect(fixture.store.committedTransactions - before < rounds * 4)
        let reopened = try fixture.reopen()
        let expected = try (0..<rounds).map { try day("2024-02-01").adding(days: $0 * 3) }
        #expect(try reopened.completions(of: user).map(\.date).sorted() == expected)
        reopened.close()
    }

    @Test(
        "writes that share a commit see each other in order: a record, the same again, its removal",
        arguments: Engine.available
    )
    func sameDayInOneCommit(engine: Engine) throws {
        let fixture = try StoreFixture(engine)
        let user = try fixture.store.createUser(name: "u").user.id
        let habit = try fixture.habit("Read", for: user, from: "2024-01-01")
        for round in 0..<10 {
            let date = try day("2024-02-01").adding(days: round)
            let other = try day("2024-06-01").adding(days: round)
            // Submitted back to back, without waiting, so that they share commits.
            let writes: [StoreWrite] = [
                .completions([.record(habitID: habit.id, date: date)]),
                .completions([.record(habitID: habit.id, date: date)]),
                .completions([.remove(habitID: habit.id, date: date)]),
                .completions([.record(habitID: habit.id, date: other)]),
                .completions([.record(habitID: habit.id, date: day("2023-12-31"))]),  // before the habit
                .completions([.record(habitID: habit.id, date: date)]),
            ]
            let boxes = writes.map { fixture.submit($0, for: user) }
            let changed = boxes.map { box -> Bool? in
                guard case .completions(let flags) = try? box.wait().get() else { return nil }
                return flags.first
            }
            #expect(changed == [true, false, true, true, nil, true], "round \(round)")
        }
        let reopened = try fixture.reopen()
        defer { reopened.close() }
        let expected = try (0..<10).flatMap {
            [try day("2024-02-01").adding(days: $0), try day("2024-06-01").adding(days: $0)]
        }
        #expect(try reopened.completions(of: user).map(\.date).sorted() == expected.sorted())
    }

    @Test(
        "concurrent writes are grouped into fewer transactions and all acknowledged durably",
        arguments: Engine.available
    )
    func groupCommit(engine: Engine) throws {
        let fixture = try StoreFixture(engine)
        let user = try fixture.store.createUser(name: "u").user.id
        let habit = try fixture.habit("Read", for: user, from: "2000-01-01")
        let before = fixture.store.committedTransactions
        let threads = 20
        let perThread = 20
        let writes = threads * perThread
        // Real threads (concurrentPerform runs only as many at once as there are cores).
        let group = DispatchGroup()
        for thread in 0..<threads {
            group.enter()
            Thread {
                for index in 0..<perThread {
                    let date = try! day("2000-01-01").adding(days: thread * perThread + index)
                    let result = fixture.write(.completions([.record(habitID: habit.id, date: date)]), for: user)
                    precondition((try? result.get()) == .completions(changed: [true]))
                }
                group.leave()
            }.start()
        }
        group.wait()
        let transactions = fixture.store.committedTransactions - before
        #expect(transactions < writes)
        let reopened = try fixture.reopen()
        #expect(try reopened.completions(of: user).count == writes)
        reopened.close()
    }
}
