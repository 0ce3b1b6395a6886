import Foundation
import StreakCore
import StreakTestSupport
import Synchronization
import Testing

@testable import StreakStorage

@Suite("Change notices")
struct ChangeNoticeTests {
    @Test("a payload round-trips; one not understood means all of its user's data, or nothing without a user")
    func payloads() {
        let days = [day("2024-02-29"), day("2024-03-01")]
        let notice = ChangeNotice(origin: "a1", user: 42, change: ChangedData(days: days))
        #expect(notice.payload == "v2 a1 42 - \(days[0].dayNumber),\(days[1].dayNumber)")
        #expect(ChangeNotice(payload: notice.payload) == notice)
        let habits = ChangeNotice(origin: "a1", user: 42, change: ChangedData(habitsOrSettings: true))
        #expect(habits.payload == "v2 a1 42 h -")
        #expect(ChangeNotice(payload: habits.payload) == habits)
        let both = ChangeNotice(origin: "a1", user: 42, change: ChangedData(days: days, habitsOrSettings: true))
        #expect(ChangeNotice(payload: both.payload) == both)
        let everything = ChangeNotice(origin: "a1", user: 42, change: .all)
        #expect(everything.payload == "v2 a1 42 h *")
        #expect(ChangeNotice(payload: everything.payload) == everything)
        // An older server's notices: a day list, or anything.
        #expect(ChangeNotice(payload: "v1 a1 42 \(days[0].dayNumber)")?.change == ChangedData(days: [days[0]]))
        #expect(ChangeNotice(payload: "v1 a1 42 *")?.change == .all)
        for bad in [
            "", "v3 a1 42 - *", "v1 a1 x *", "v1 a1 42 1,y", "v1 a1 42", "v1 a1 42 * extra", "v2 a1 42 *",
            "v2 a1 42 x 1", "v2 a1 42 - -", "v2 a1 42 - 1,", "v2  42 h -", "v2 a1 42 h - extra",
        ] {
            #expect(ChangeNotice(payload: bad) == nil, "\(bad)")
        }
        // One not understood that still names its origin and user: anything of that user.
        #expect(ChangeNotice(unknownPayload: "v3 a1 42 - *") == ChangeNotice(origin: "a1", user: 42, change: .all))
        #expect(ChangeNotice(unknownPayload: "v2 a1 42 x 1")?.change == .all)
        for nameless in ["", "v3", "v3 a1", "v3 a1 x", "v3  42"] {
            #expect(ChangeNotice(unknownPayload: nameless) == nil, "\(nameless)")
        }
        let many = (0..<(ChangeNotice.maximumDays + 1)).map { try! day("2024-01-01").adding(days: $0) }
        #expect(ChangeNotice(origin: "a1", user: 1, change: ChangedData(days: many)).change == .all)
    }

    @Test("a batch gives one notice per user whose data changed, with the days that changed")
    func batches() {
        let ignore: @Sendable (Result<StoreWriteResult, StorageError>) -> Void = { _ in }
        let writes = [
            PendingWrite(
                write: .completions([.record(habitID: 1, date: day("2024-01-02"))]),
                user: 1,
                completion: ignore
            ),
            PendingWrite(
                write: .completions([.record(habitID: 1, date: day("2024-01-01"))]),
                user: 1,
                completion: ignore
            ),
            PendingWrite(
                write: .completions([.record(habitID: 2, date: day("2024-01-05"))]),
                user: 2,
                completion: ignore
            ),
            PendingWrite(write: .renameHabit(id: 3, name: "x"), user: 3, completion: ignore),
            PendingWrite(
                write: .completions([.record(habitID: 4, date: day("2024-01-05"))]),
                user: 4,
                completion: ignore
            ),
            PendingWrite(write: .renameHabit(id: 5, name: "x"), user: 5, completion: ignore),
            PendingWrite(
                write: .completions([.record(habitID: 6, date: day("2024-01-07"))]),
                user: 6,
                completion: ignore
            ),
            PendingWrite(write: .renameHabit(id: 6, name: "x"), user: 6, completion: ignore),
            PendingWrite(write: .deleteHabit(id: 7), user: 7, completion: ignore),
            PendingWrite(write: .importData(ImportBatch(today: day("2024-01-01"))), user: 8, completion: ignore),
        ]
        let results: [Result<StoreWriteResult, StorageError>] = [
            .success(.completions(changed: [true])),
            .success(.completions(changed: [true])),
            .success(.completions(changed: [false])),  // recorded twice: nothing changed
            .success(.habit(Habit(id: 3, name: "x", createdOn: day("2024-01-01")))),
            .failure(StorageError(.notFound, "no habit")),
            .success(.habit(Habit(id: 5, name: "x", createdOn: day("2024-01-01")))),
            .success(.completions(changed: [true])),
            .success(.habit(Habit(id: 6, name: "x", createdOn: day("2024-01-01")))),
            .success(
                .deletedHabit(
                    Habit(id: 7, name: "x", createdOn: day("2024-01-01")),
                    completions: [day("2024-01-03")],
                    skips: [day("2024-01-02")]
                )
            ),
            .success(.imported(ImportOutcome())),
        ]
        let habits = ChangedData(habitsOrSettings: true)
        #expect(
            ChangeNotice.notices(origin: "o", writes: writes, results: results) == [
                ChangeNotice(origin: "o", user: 1, change: ChangedData(days: [day("2024-01-01"), day("2024-01-02")])),
                ChangeNotice(origin: "o", user: 3, change: habits),
                ChangeNotice(origin: "o", user: 5, change: habits),
                ChangeNotice(
                    origin: "o",
                    user: 6,
                    change: ChangedData(days: [day("2024-01-07")], habitsOrSettings: true)
                ),
                ChangeNotice(
                    origin: "o",
                    user: 7,
                    change: ChangedData(days: [day("2024-01-02"), day("2024-01-03")], habitsOrSettings: true)
                ),
                ChangeNotice(origin: "o", user: 8, change: .all),
            ]
        )
    }
}

/// The PostgreSQL store's own behaviour: notices between stores, and lost connections.
@Suite(.enabled(if: PostgresTestDatabase.serverURL != nil || PostgresTestDatabase.required))
struct PostgresStoreTests {
    /// Collects the external changes a store reports.
    final class Changes: Sendable {
        private let received = Mutex<[ExternalChange]>([])
        func append(_ change: ExternalChange) { received.withLock { $0.append(change) } }
        /// Waits up to `seconds` for `expected` to arrive, then returns what arrived.
        func await(_ expected: ExternalChange, seconds: Double = 10) -> [ExternalChange] {
            let deadline = Date().addingTimeInterval(seconds)
            while !received.withLock({ $0.contains(expected) }) && Date() < deadline { usleep(10_000) }
            return received.withLock { $0 }
        }
    }

    @Test("a store hears the other store's commits, with their days, and not its own")
    func notices() throws {
        let fixture = try StoreFixture(.postgres)
        let first = fixture.store
        let second = try fixture.reopen()
        defer { second.close() }
        let heardByFirst = Changes()
        let heardBySecond = Changes()
        first.onExternalChange { heardByFirst.append($0) }
        second.onExternalChange { heardBySecond.append($0) }
        let user = try first.createUser(name: "u").user.id
        let habit = try write(.createHabit(name: "h", createdOn: day("2024-01-01")), to: second, for: user)
        let habitChange = ExternalChange.user(user, ChangedData(habitsOrSettings: true))
        #expect(heardByFirst.await(habitChange).contains(habitChange))
        guard case .habit(let created) = habit else { throw StorageError(.corrupt, "not a habit") }
        let days = [day("2024-01-03"), day("2024-01-04")]
        _ = try write(.completions(days.map { .record(habitID: created.id, date: $0) }), to: second, for: user)
        let dayChange = ExternalChange.user(user, ChangedData(days: days))
        #expect(heardByFirst.await(dayChange).contains(dayChange))
        // A notice's own store ignores it; the first store's write reaches the second.
        _ = try write(.completions([.remove(habitID: created.id, date: days[0])]), to: first, for: user)
        let removal = ExternalChange.user(user, ChangedData(days: [days[0]]))
        #expect(heardBySecond.await(removal) == [removal])
        // Notices are delivered in commit order: by now the first store would have heard its own.
        #expect(!heardByFirst.await(removal, seconds: 0.2).contains(removal))

        // Several users' writes submitted together (one group commit, one notice each).
        let others = try (1...5).map { try first.createUser(name: "other\($0)").user.id }
        let boxes = others.map { other in
            let box = ResultBox()
            second.submit(.createHabit(name: "h", createdOn: day("2024-01-01")), for: other) { box.set($0) }
            return box
        }
        for box in boxes { _ = try box.wait().get() }
        for other in others {
            let created = ExternalChange.user(other, ChangedData(habitsOrSettings: true))
            #expect(heardByFirst.await(created).contains(created), "user \(other)")
        }
    }

    @Test("after its listening connection is lost, a store reconnects and reports that anything may have changed")
    func listenerReconnects() throws {
        let fixture = try StoreFixture(.postgres)
        let store = fixture.store
        let heard = Changes()
        store.onExternalChange { heard.append($0) }
        try PostgresTestDatabase.psql(
            fixture.databaseURL!,
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE query LIKE 'LISTEN%' AND datname = current_database()"
        )
        #expect(heard.await(.everyone).contains(.everyone))
    }

    @Test("a listener that cannot connect at first keeps trying, and reports that anything may have changed")
    func listenerStartsLate() throws {
        // A database that does not exist yet: the listener's first connection fails.
        let database = try PostgresTestDatabase(createNow: false)
        let heard = Changes()
        let listener = PostgresListener(url: database.url, origin: "test", queue: .global()) { heard.append($0) }
        defer { listener.stop() }
        #expect(heard.await(.everyone, seconds: 1.5).isEmpty)
        try database.create()
        #expect(heard.await(.everyone).contains(.everyone))
    }

    @Test("a write after the server dropped the connection fails at most once, then writes go through")
    func writerReconnects() throws {
        let fixture = try StoreFixture(.postgres)
        let store = fixture.store
        let user = try store.createUser(name: "u").user.id
        try PostgresTestDatabase.psql(
            fixture.databaseURL!,
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()"
        )
        let first = try? write(.createHabit(name: "a", createdOn: day("2024-01-01")), to: store, for: user)
        let second = try write(.createHabit(name: "b", createdOn: day("2024-01-01")), to: store, for: user)
        guard case .habit(let habit) = second else { throw StorageError(.corrupt, "not a habit") }
        #expect(habit.name == "b")
        // Reads reconnect too; whatever the first write answered, the store agrees with it.
        let names = try store.habits(of: user).map(\.name)
        #expect(names == (first == nil ? ["b"] : ["a", "b"]))
    }

    @Test("a statement that fails in the database fails its write alone, though it aborts the transaction")
    func abortedTransactionIsRetried() throws {
        let fixture = try StoreFixture(.postgres)
        let store = fixture.store
        let user = try store.createUser(name: "u").user.id
        // A trigger fails one insert in the database itself, after the store's own checks passed.
        try PostgresTestDatabase.psql(
            fixture.databaseURL!,
            """
            CREATE FUNCTION refuse_boom() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN IF NEW.name = 'boom' THEN RAISE EXCEPTION 'boom refused'; END IF; RETURN NEW; END $$;
            CREATE TRIGGER refuse_boom BEFORE INSERT ON habits FOR EACH ROW EXECUTE FUNCTION refuse_boom();
            """
        )
        for round in 0..<5 {
            // Submitted back to back, so that they share a group commit.
            let boxes = ["a\(round)", "boom", "b\(round)"].map { name in
                let box = ResultBox()
                store.submit(.createHabit(name: name, createdOn: day("2024-01-01")), for: user) { box.set($0) }
                return box
            }
            #expect((try? boxes[0].wait().get()) != nil)
            #expect { try boxes[1].wait().get() } throws: {
                ($0 as? StorageError)?.engine?.text.contains("boom refused") == true
            }
            #expect((try? boxes[2].wait().get()) != nil)
        }
        let names = Set(try store.habits(of: user).map(\.name))
        #expect(names == Set((0..<5).flatMap { ["a\($0)", "b\($0)"] }))
    }

    @Test("a session that went read-only is dropped: writes work again as soon as the database is writable")
    func readOnlySessionsAreReplaced() throws {
        let fixture = try StoreFixture(.postgres)
        let store = fixture.store
        let url = try #require(fixture.databaseURL)
        let name = try #require(url.split(separator: "/").last)
        // psql's own session must be writable whatever the database's default.
        let admin = url + "?options=-c%20default_transaction_read_only%3Doff"
        let user = try store.createUser(name: "u").user.id
        guard
            case .habit(let habit) = try write(
                .createHabit(name: "h", createdOn: day("2024-01-01")),
                to: store,
                for: user
            )
        else { throw StorageError(.corrupt, "not a habit") }
        // A switch to a read-only database (a failover onto a standby looks the same): new sessions
        // are read-only, and the server ends the old ones.
        try PostgresTestDatabase.psql(admin, "ALTER DATABASE \(name) SET default_transaction_read_only = on")
        try PostgresTestDatabase.psql(
            admin,
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()"
        )
        #expect(throws: StorageError.self) {
            try write(.completions([.record(habitID: habit.id, date: day("2024-01-02"))]), to: store, for: user)
        }
        #expect(throws: StorageError.self) {
            try write(.createHabit(name: "read-only", createdOn: day("2024-01-01")), to: store, for: user)
        }
        try PostgresTestDatabase.psql(admin, "ALTER DATABASE \(name) SET default_transaction_read_only = off")
        // The sessions that got "read-only transaction" were dropped: the next writes go through.
        let recorded = try write(
            .completions([.record(habitID: habit.id, date: day("2024-01-03"))]),
            to: store,
            for: user
        )
        #expect(recorded == .completions(changed: [true]))
        guard
            case .habit = try write(.createHabit(name: "writable", createdOn: day("2024-01-01")), to: store, for: user)
        else { throw StorageError(.corrupt, "not a habit") }
        #expect(try store.completions(of: user).map(\.date) == [day("2024-01-03")])
    }

    @Test("a database that stops answering fails reads and writes within the timeout; then they work again")
    func stalledDatabase() throws {
        let database = try PostgresTestDatabase()
        let (proxy, url) = try FreezableProxy.start(for: database.url)
        defer { proxy.stop() }
        let store = try PostgresStore(url: url, timeout: .seconds(1))
        defer {
            proxy.thaw()
            store.close()
        }
        let (user, token) = try store.createUser(name: "u")
        guard
            case .habit(let habit) = try write(
                .createHabit(name: "h", createdOn: day("2024-01-01")),
                to: store,
                for: user.id
            )
        else { throw StorageError(.corrupt, "not a habit") }
        _ = try write(.completions([.record(habitID: habit.id, date: day("2024-01-01"))]), to: store, for: user.id)

        proxy.freeze()
        // Each call on its own thread: without a bound it would wait for the thaw below.
        let read = Self.timed { try store.authenticate(token: token) }
        let write = Self.timed {
            try self.write(.completions([.record(habitID: habit.id, date: day("2024-01-02"))]), to: store, for: user.id)
        }
        let followerRead = Self.timed { try store.dayRows(of: user.id, on: [day("2024-01-01")]) }
        for (name, call) in [("authenticate", read), ("write", write), ("dayRows", followerRead)] {
            let outcome = call.wait(upTo: 8)
            guard let outcome else {
                Issue.record("\(name): no answer 8 s into the stall (timeout 1 s)")
                continue
            }
            #expect(outcome.seconds < 4, "\(name) took \(outcome.seconds) s")
            #expect((outcome.error as? StorageError)?.code == .io, "\(name): \(String(describing: outcome.error))")
        }
        proxy.thaw()
        // Once it answers again: after the pause that follows a timeout (1 s), calls work.
        let deadline = Date().addingTimeInterval(10)
        var recorded: StoreWriteResult?
        while recorded == nil && Date() < deadline {
            recorded = try? self.write(
                .completions([.record(habitID: habit.id, date: day("2024-01-03"))]),
                to: store,
                for: user.id
            )
            if recorded == nil { usleep(100_000) }
        }
        #expect(recorded == .completions(changed: [true]))
        #expect(try store.authenticate(token: token) == user.id)
        // The write acknowledged before the stall is there; the one that failed may or may not be.
        let days = Set(try store.completions(of: user.id).map(\.date))
        #expect(days.isSuperset(of: [day("2024-01-01"), day("2024-01-03")]))
    }

    /// A call run on a thread of its own, whose outcome can be awaited with a bound.
    final class TimedCall: @unchecked Sendable {
        private let done = DispatchSemaphore(value: 0)
        private let started = Date()
        private(set) var seconds = 0.0
        private(set) var error: (any Error)?

        /// The call's error (nil when it succeeded) and its duration, or nil after `seconds`.
        func wait(upTo limit: Double) -> (error: (any Error)?, seconds: Double)? {
            let remaining = limit - Date().timeIntervalSince(started)
            guard done.wait(timeout: .now() + max(remaining, 0)) == .success else { return nil }
            return (error, seconds)
        }

        fileprivate func finish(_ error: (any Error)?) {
            self.error = error
            seconds = Date().timeIntervalSince(started)
            done.signal()
        }
    }

    static func timed(_ body: @escaping @Sendable () throws -> some Any) -> TimedCall {
        let call = TimedCall()
        Thread.detachNewThread {
            do {
                _ = try body()
                call.finish(nil)
            } catch {
                call.finish(error)
            }
        }
        return call
    }

    private func write(_ write: StoreWrite, to store: SQLStore, for user: UserID) throws -> StoreWriteResult {
        let box = ResultBox()
        store.submit(write, for: user) { box.set($0) }
        return try box.wait().get()
    }
}
