import Foundation
import StreakCore
import StreakTestSupport
import Synchronization
import Testing

@testable import StreakStorage

/// Statements sent together (libpq's pipeline mode), and the write transaction that uses them.
@Suite(.enabled(if: PostgresTestDatabase.serverURL != nil || PostgresTestDatabase.required))
struct PostgresFlightTests {
    @Test("a flight runs its statements in order and stops at the first that fails, committing nothing")
    func flightStopsAtFailure() throws {
        let database = try PostgresTestDatabase()
        let connection = try PostgresConnection(url: database.url)
        defer { connection.close() }
        try connection.execute("CREATE TABLE t (x INTEGER PRIMARY KEY)")

        let failed = connection.run([
            SQLStatement("BEGIN"),
            SQLStatement("INSERT INTO t VALUES (?) RETURNING x", [.integer(1)]),
            SQLStatement("INSERT INTO t VALUES (?) RETURNING x", [.integer(1)]),  // a duplicate key
            SQLStatement("INSERT INTO t VALUES (?) RETURNING x", [.integer(2)]),
            SQLStatement("COMMIT"),
        ])
        #expect(failed.rows.count == 2)
        #expect(failed.rows.last == [[.integer(1)]])
        #expect(failed.failure?.index == 2)
        #expect(failed.failure?.error.code == .alreadyExists)
        #expect(connection.transactionAborted)
        try connection.query("ROLLBACK")
        #expect(try connection.query("SELECT count(*) FROM t") == [[.integer(0)]])

        let committed = connection.run([
            SQLStatement("BEGIN"),
            SQLStatement("INSERT INTO t SELECT * FROM unnest(?::integer[]) RETURNING x", [.integerArray([3, 4])]),
            SQLStatement("SELECT x FROM t ORDER BY x"),
            SQLStatement("COMMIT"),
        ])
        #expect(committed.failure == nil)
        #expect(committed.rows.count == 4)
        #expect(committed.rows[2] == [[.integer(3)], [.integer(4)]])
        #expect(!connection.transactionAborted)
        // Committed: another session sees it.
        let other = try PostgresConnection(url: database.url)
        defer { other.close() }
        #expect(try other.query("SELECT count(*) FROM t") == [[.integer(2)]])
    }

    @Test(
        "a flight that starts a transaction runs again on a new session after the server ended the idle one",
        arguments: [false, true]
    )
    func flightReconnects(prepared: Bool) throws {
        let database = try PostgresTestDatabase()
        let connection = try PostgresConnection(url: database.url)
        defer { connection.close() }
        let statements = [SQLStatement("BEGIN"), SQLStatement("SELECT 41 + ?", [.integer(1)])]
        if prepared {
            // Its statements are prepared on the first session: the second flight only sends.
            #expect(connection.run(statements).failure == nil)
            try connection.query("ROLLBACK")
        } else {
            _ = try connection.query("SELECT 1")
        }
        try PostgresTestDatabase.psql(
            database.url,
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()"
        )
        let flight = connection.run(statements)
        #expect(flight.failure == nil)
        #expect(flight.rows.last == [[.integer(42)]])
        try connection.query("ROLLBACK")
    }

    @Test(
        "a batch of single records and removals costs two round trips: BEGIN with its habit lock, then the rest with COMMIT"
    )
    func writeRoundTrips() throws {
        let fixture = try StoreFixture(.postgres)
        let user = try fixture.store.createUser(name: "u").user.id
        let habit = try fixture.habit("Read", for: user)
        let session = CountingSession(try PostgresConnection(url: fixture.databaseURL!))
        let writer = GroupCommitWriter(
            connection: session,
            beforeCommit: ChangeNotice.Sender(origin: "t", announcer: nil).statement
        )
        defer { writer.stop() }
        let writes: [StoreWrite] = [
            .completions([.record(habitID: habit.id, date: day("2024-03-01"))]),
            .completions([.record(habitID: habit.id, date: day("2024-03-02"))]),
            .completions([.remove(habitID: habit.id, date: day("2024-03-01"))]),
            .completions([.remove(habitID: habit.id, date: day("2024-03-09"))]),  // nothing to remove
            .completions([.record(habitID: habit.id, date: day("2024-03-02"))]),  // already there
        ]
        var results: [Result<StoreWriteResult, StorageError>] = []
        for write in writes {
            let box = ResultBox()
            writer.enqueue(PendingWrite(write: write, user: user) { box.set($0) })
            results.append(box.wait())
        }
        let changed = results.map { result -> Bool? in
            guard case .success(.completions(let flags)) = result else { return nil }
            return flags.first
        }
        #expect(changed == [true, true, true, false, false])
        #expect(writer.committedTransactions == writes.count)
        #expect(session.counts == .init(flights: 2 * writes.count, statements: 0))
        #expect(try fixture.store.completions(of: user).map(\.date) == [day("2024-03-02")])
    }
}

/// A session that counts what the writer sends: flights (`run`) and single statements (`query`).
final class CountingSession: SQLSession, @unchecked Sendable {
    struct Counts: Equatable {
        var flights = 0
        var statements = 0
    }

    private let connection: PostgresConnection
    private let counted = Mutex(Counts())

    init(_ connection: PostgresConnection) { self.connection = connection }

    var counts: Counts { counted.withLock { $0 } }
    var dialect: SQLDialect { connection.dialect }
    var changes: Int { connection.changes }
    var transactionAborted: Bool { connection.transactionAborted }

    func query(_ sql: String, _ arguments: [SQLValue]) throws(StorageError) -> [[SQLValue]] {
        counted.withLock { $0.statements += 1 }
        return try connection.query(sql, arguments)
    }

    func execute(_ sql: String) throws(StorageError) {
        counted.withLock { $0.statements += 1 }
        try connection.execute(sql)
    }

    func run(_ statements: [SQLStatement]) -> SQLFlight {
        counted.withLock { $0.flights += 1 }
        return connection.run(statements)
    }

    func rollBack() {
        counted.withLock { $0.statements += 1 }
        connection.rollBack()
    }

    func dropSession() { connection.dropSession() }
}
