import Foundation
import StreakCore
import StreakTestSupport
import Testing

@testable import StreakStorage

/// The change log's cursor, without a database: what it reads and what it skips.
@Suite("Change log cursor")
struct ChangeLogCursorTests {
    /// A read's rows: the snapshot's xmin first, then (xid, id, origin, payload) rows.
    private func rows(xmin: UInt64, _ logged: [(xid: UInt64, id: Int64, payload: String)]) -> [[SQLValue]] {
        [[.text(String(xmin)), .null, .null, .null]]
            + logged.map { [.text(String($0.xid)), .integer($0.id), .text("log-a"), .text($0.payload)] }
    }

    @Test(
        "a row is reported once, a row of a transaction that commits after a later id is not skipped, and seen rows are forgotten past the horizon"
    )
    func outOfOrder() throws {
        var cursor = ChangeLog.Cursor(horizon: 100)
        // Transaction 101 (id 2) committed; 100 (id 1) still runs: the xmin stays 100.
        var found = try cursor.advance(rows: rows(xmin: 100, [(101, 2, "b")]))
        #expect(found.map(\.payload) == ["b"])
        #expect(cursor.horizon == 100 && cursor.seen == [2: 101])
        // The next read excludes what was seen and still asks from transaction 100 on.
        #expect(cursor.statement.arguments == [.text("100"), .integer(2), .integer(2), .text("{}")])
        // 100 commits (id 1, the lower id, visible after id 2): reported; now nothing runs.
        found = try cursor.advance(rows: rows(xmin: 102, [(100, 1, "a")]))
        #expect(found.map(\.payload) == ["a"])
        #expect(cursor.horizon == 102 && cursor.seen.isEmpty)
        #expect(cursor.statement.arguments == [.text("102"), .integer(.max), .integer(0), .text("{}")])
        // Several payloads of one row, and rows in id order.
        found = try cursor.advance(rows: rows(xmin: 105, [(104, 4, "d"), (103, 3, "c1"), (103, 3, "c2")]))
        #expect(found.map(\.payload) == ["c1", "c2", "d"])
        // Seen rows with ids missing between them (a transaction still running): those are asked
        // for by id, the rest by range.
        found = try cursor.advance(rows: rows(xmin: 106, [(106, 7, "g"), (107, 10, "j"), (108, 11, "k")]))
        #expect(found.map(\.payload) == ["g", "j", "k"])
        #expect(cursor.statement.arguments == [.text("106"), .integer(7), .integer(11), .text("{8,9}")])
        // A read without its snapshot row is refused, and moves nothing.
        #expect(throws: StorageError.self) { try cursor.advance(rows: []) }
    }
}

/// The change log on PostgreSQL: commits whose notification never came, commits out of id order,
/// pruning, and the locks that let two servers write one habit at once.
@Suite(.enabled(if: PostgresTestDatabase.serverURL != nil || PostgresTestDatabase.required))
struct ChangeLogTests {
    /// A listener on `url` that reads the log every `poll`, prunes every `prune`.
    private func listen(
        _ url: String,
        poll: Duration = .seconds(1),
        prune: Duration = .seconds(60),
        retention: Duration = ChangeLog.retention,
        into heard: PostgresStoreTests.Changes
    ) -> PostgresListener {
        PostgresListener(
            url: url,
            origin: "log-listener",
            queue: .global(),
            pollInterval: poll,
            pruneInterval: prune,
            retention: retention
        ) { heard.append($0) }
    }

    private func change(user: UserID, day text: String) -> (payload: String, change: ExternalChange) {
        let notice = ChangeNotice(origin: "log-writer", user: user, change: ChangedData(days: [day(text)]))
        return (notice.payload, .user(user, notice.change))
    }

    @Test("a committed change whose notification never arrives is reported by the listener's timer")
    func pollFindsUnannounced() throws {
        let fixture = try StoreFixture(.postgres)
        let url = try #require(fixture.databaseURL)
        let heard = PostgresStoreTests.Changes()
        let listener = listen(url, poll: .milliseconds(200), into: heard)
        defer { listener.stop() }
        // Logged as a write transaction logs it, and never notified (a crash after COMMIT).
        let logged = change(user: 7, day: "2024-05-01")
        let connection = try PostgresConnection(url: url)
        defer { connection.close() }
        let insert = ChangeLog.insert(origin: "log-writer", payloads: [logged.payload])
        try connection.query(insert.sql, insert.arguments)
        #expect(heard.await(logged.change, seconds: 5).contains(logged.change))
        // Reported once, though the timer reads on.
        usleep(600_000)
        #expect(heard.await(logged.change, seconds: 0).filter { $0 == logged.change }.count == 1)
        // Its own origin's rows are not reported.
        let own = ChangeNotice(origin: "log-listener", user: 8, change: ChangedData(days: [day("2024-05-02")]))
        let ownInsert = ChangeLog.insert(origin: "log-listener", payloads: [own.payload])
        try connection.query(ownInsert.sql, ownInsert.arguments)
        let later = change(user: 9, day: "2024-05-03")
        let laterInsert = ChangeLog.insert(origin: "log-writer", payloads: [later.payload])
        try connection.query(laterInsert.sql, laterInsert.arguments)
        let all = heard.await(later.change, seconds: 5)
        #expect(all.contains(later.change))
        #expect(!all.contains(.user(8, own.change)))
    }

    @Test("a log row whose transaction commits after a row with a higher id was read is still reported")
    func outOfOrderCommit() throws {
        let fixture = try StoreFixture(.postgres)
        let url = try #require(fixture.databaseURL)
        let heard = PostgresStoreTests.Changes()
        let listener = listen(url, poll: .milliseconds(100), into: heard)
        defer { listener.stop() }
        let first = try PostgresConnection(url: url)
        let second = try PostgresConnection(url: url)
        defer {
            first.close()
            second.close()
        }
        let early = change(user: 1, day: "2024-06-01")
        let late = change(user: 2, day: "2024-06-02")
        // The first transaction takes the lower id, the second the higher one and commits first.
        try first.query("BEGIN")
        let earlyInsert = ChangeLog.insert(origin: "log-writer", payloads: [early.payload])
        try first.query(earlyInsert.sql, earlyInsert.arguments)
        try second.query("BEGIN")
        let lateInsert = ChangeLog.insert(origin: "log-writer", payloads: [late.payload])
        try second.query(lateInsert.sql, lateInsert.arguments)
        try second.query("COMMIT")
        #expect(heard.await(late.change, seconds: 5).contains(late.change))
        // Several reads past the higher id, then the lower one commits.
        usleep(400_000)
        try first.query("COMMIT")
        #expect(heard.await(early.change, seconds: 5).contains(early.change))
        let logged = try first.query("SELECT id FROM change_log ORDER BY id").compactMap { $0.first?.integer }
        #expect(logged.count == 2 && logged[0] < logged[1])
    }

    @Test("rows older than the retention are pruned, newer ones kept")
    func pruning() throws {
        let fixture = try StoreFixture(.postgres)
        let url = try #require(fixture.databaseURL)
        let connection = try PostgresConnection(url: url)
        defer { connection.close() }
        try connection.execute(
            """
            INSERT INTO change_log (origin, payloads, created_at) VALUES
                ('log-old', '{"v2 log-old 1 - 1"}', now() - interval '10 minutes'),
                ('log-new', '{"v2 log-new 1 - 2"}', now() - interval '10 seconds')
            """
        )
        let heard = PostgresStoreTests.Changes()
        let listener = listen(
            url,
            poll: .milliseconds(100),
            prune: .milliseconds(100),
            retention: .seconds(60),
            into: heard
        )
        defer { listener.stop() }
        let deadline = Date().addingTimeInterval(5)
        var origins: [String] = []
        repeat {
            usleep(100_000)
            origins = try connection.query("SELECT origin FROM change_log ORDER BY id").compactMap { $0.first?.text }
        } while origins.count > 1 && Date() < deadline
        #expect(origins == ["log-new"])
    }

    @Test("a store's write logs its notices in its transaction and announces them after the commit")
    func writesAreLogged() throws {
        let fixture = try StoreFixture(.postgres)
        let user = try fixture.store.createUser(name: "u").user.id
        let habit = try fixture.habit("Read", for: user)
        let box = ResultBox()
        fixture.store.submit(.completions([.record(habitID: habit.id, date: day("2024-03-01"))]), for: user) {
            box.set($0)
        }
        _ = try box.wait().get()
        let connection = try PostgresConnection(url: try #require(fixture.databaseURL))
        defer { connection.close() }
        let rows = try connection.query("SELECT origin, array_to_string(payloads, '|') FROM change_log ORDER BY id")
        let payloads = rows.compactMap { $0[1].text }.flatMap { $0.split(separator: "|").map(String.init) }
        #expect(rows.allSatisfy { $0[0].text.map(ChangeNotice.logsChanges) == true })
        #expect(payloads.contains { $0.hasSuffix(" \(user) - \(day("2024-03-01").dayNumber)") })
    }

    @Test("another server's completion write of the same habit waits only when it writes the same day")
    func dayLocks() throws {
        let fixture = try StoreFixture(.postgres)
        let store = fixture.store
        let user = try store.createUser(name: "u").user.id
        let habit = try fixture.habit("Read", for: user)
        // Another server's transaction, open, holding what a batch recording 2024-04-01 holds.
        let other = try PostgresConnection(url: try #require(fixture.databaseURL))
        defer { other.close() }
        let batch = [
            PendingWrite(write: .completions([.record(habitID: habit.id, date: day("2024-04-01"))]), user: user) { _ in
            }
        ]
        let habits = BatchHabits()
        let locks = try #require(DayLocks.statement(for: batch))
        let prefetch = try #require(habits.prefetch(for: batch, dialect: .postgres))
        let opening = other.run([SQLStatement("BEGIN"), locks, prefetch.statement])
        #expect(opening.failure == nil)

        // Another day of the same habit: not held up.
        let otherDay = ResultBox()
        store.submit(.completions([.record(habitID: habit.id, date: day("2024-04-02"))]), for: user) {
            otherDay.set($0)
        }
        #expect(try otherDay.wait(seconds: 5)?.get() == .completions(changed: [true]))
        // The same day (a skip): waits for the other transaction's commit, then sees its row.
        let sameDay = ResultBox()
        store.submit(.completions([.skip(habitID: habit.id, date: day("2024-04-01"))]), for: user) { sameDay.set($0) }
        #expect(sameDay.wait(seconds: 0.5) == nil)
        try other.query(
            "INSERT INTO completions (user_id, habit_id, day) VALUES (?, ?, ?)",
            [.integer(user), .integer(habit.id), .integer(Int64(day("2024-04-01").dayNumber))]
        )
        // A habit change (archive) on a third server waits for the shared habit row.
        let third = try fixture.reopen()
        defer { third.close() }
        let archive = ResultBox()
        third.submit(.archiveHabit(id: habit.id, on: day("2024-12-01")), for: user) { archive.set($0) }
        #expect(archive.wait(seconds: 0.5) == nil)
        try other.query("COMMIT")
        #expect(try sameDay.wait(seconds: 5)?.get() == .completions(changed: [true]))
        _ = try #require(try archive.wait(seconds: 5)?.get())
        // The skip replaced the other server's completion: one of the two stays, never both.
        #expect(try store.completions(of: user).map(\.date) == [day("2024-04-02")])
        #expect(try store.skips(of: user).map(\.date) == [day("2024-04-01")])
    }
}

@Suite("Change announcer")
struct ChangeAnnouncerTests {
    @Test("the notices of batches announced together are merged per user, in the order of their first")
    func merging() throws {
        let a = day("2024-01-01")
        let b = day("2024-01-02")
        let notices = [
            ChangeNotice(origin: "log-o", user: 2, change: ChangedData(days: [b])),
            ChangeNotice(origin: "log-o", user: 1, change: ChangedData(days: [a])),
            ChangeNotice(origin: "log-o", user: 2, change: ChangedData(days: [a], habitsOrSettings: true)),
            ChangeNotice(origin: "log-o", user: 1, change: .all),
        ]
        let merged = ChangeAnnouncer.merged(notices.map { ChangeAnnouncer.Announced($0) })
        let expected = [
            ChangeNotice(origin: "log-o", user: 2, change: ChangedData(days: [a, b], habitsOrSettings: true)),
            ChangeNotice(origin: "log-o", user: 1, change: .all),
        ]
        #expect(merged.map(\.notice) == expected)
        #expect(merged.map(\.payload) == expected.map(\.payload))
        // One of a user alone keeps its payload as made.
        let alone = ChangeAnnouncer.Announced(notices[0], payload: "kept")
        #expect(ChangeAnnouncer.merged([alone]) == [alone])
        #expect(ChangeNotice.origin(of: "v2 log-o 1 - 5") == "log-o")
        #expect(ChangeNotice.origin(of: "v9") == nil)
    }
}
