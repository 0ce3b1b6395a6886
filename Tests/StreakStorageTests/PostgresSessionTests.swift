import Glibc
import StreakTestSupport
import Testing

@testable import StreakStorage

/// A connection's sessions (`PostgresSessionState`): replaced when lost while idle, never behind
/// the back of a transaction that was open, and gone for good once closed.
@Suite(.enabled(if: PostgresTestDatabase.serverURL != nil || PostgresTestDatabase.required))
struct PostgresSessionTests {
    /// Ends every session of `database` but the one psql runs on.
    private static func terminateSessions(_ database: PostgresTestDatabase) throws {
        try PostgresTestDatabase.psql(
            database.url,
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()"
        )
    }

    @Test("a session lost while idle is replaced: a read prepared on the old one runs on a new one")
    func idleSessionIsReplaced() throws {
        let database = try PostgresTestDatabase()
        let connection = try PostgresConnection(url: database.url)
        defer { connection.close() }
        let before = try connection.query("SELECT pg_backend_pid(), ? + 1", [.integer(1)])
        try Self.terminateSessions(database)

        let after = try connection.query("SELECT pg_backend_pid(), ? + 1", [.integer(1)])
        #expect(after.first?.last == .integer(2))
        #expect(after.first?.first != before.first?.first, "a new server process answers")
        #expect(!connection.transactionOpen)
    }

    @Test(
        "a session lost with a transaction open fails every statement until the caller gives it up",
        arguments: ["ROLLBACK", "rollBack()", "BEGIN"]
    )
    func lostTransactionIsNotReplacedBehindTheCaller(givenUpBy ending: String) throws {
        let database = try PostgresTestDatabase()
        let connection = try PostgresConnection(url: database.url)
        defer { connection.close() }
        try connection.execute("CREATE TABLE t (x INTEGER PRIMARY KEY)")
        try connection.query("BEGIN")
        try connection.query("INSERT INTO t VALUES (?)", [.integer(1)])
        try Self.terminateSessions(database)

        // The statement that finds the session gone fails: it may be one the caller must not
        // lose (the rest of its transaction), so it is not run on a new session.
        #expect(throws: StorageError.self) { try connection.query("INSERT INTO t VALUES (?)", [.integer(2)]) }
        #expect(connection.transactionOpen)
        #expect(connection.transactionAborted)
        // So does every later one, reads included, even though a new session could be had.
        let refused = #expect(throws: StorageError.self) { try connection.query("SELECT count(*) FROM t") }
        #expect(refused?.message.contains("the transaction was lost with its connection") == true)
        #expect(throws: StorageError.self) { try connection.execute("COMMIT") }

        switch ending {
        case "rollBack()":
            connection.rollBack()
        case "BEGIN":
            try connection.query("BEGIN")
            #expect(!connection.transactionAborted)
            try connection.query("INSERT INTO t VALUES (?)", [.integer(3)])
            try connection.query("COMMIT")
        default:
            try connection.query(ending)
        }
        #expect(!connection.transactionOpen)
        let expected: [[SQLValue]] = ending == "BEGIN" ? [[.integer(3)]] : []
        #expect(try connection.query("SELECT x FROM t") == expected, "nothing of the lost transaction stayed")
    }

    @Test("a transaction whose BEGIN cannot reach the server is lost too: its next statement fails")
    func beginThatNeverRanLosesTheTransaction() throws {
        let database = try PostgresTestDatabase()
        let direct = try PostgresConnection(url: database.url)
        defer { direct.close() }
        try direct.execute("CREATE TABLE t (x INTEGER)")
        let (proxy, url) = try FreezableProxy.start(for: database.url)
        defer { proxy.stop() }
        let connection = try PostgresConnection(url: url, timeout: .seconds(1))
        defer { connection.close() }

        proxy.freeze()
        #expect(throws: StorageError.self) { try connection.query("BEGIN") }
        #expect(connection.timedOut)
        #expect(connection.outcomeUnknown)
        proxy.thaw()
        // The caller believes a transaction may be open: an INSERT now would commit on its own.
        #expect(throws: StorageError.self) { try connection.query("INSERT INTO t VALUES (1)") }
        try connection.query("ROLLBACK")
        // Past the pause after a timeout (statements fail at once during it), the next
        // operation connects anew and starts afresh: its flags are its own.
        usleep(UInt32(PostgresConnection.pauseAfterTimeout.components.seconds) * 1_000_000 + 100_000)
        #expect(try connection.query("SELECT count(*) FROM t") == [[.integer(0)]])
        #expect(!connection.timedOut)
        #expect(!connection.outcomeUnknown)
    }

    @Test("a closed connection fails every statement with .closed and holds no session")
    func closedConnection() throws {
        let database = try PostgresTestDatabase()
        let connection = try PostgresConnection(url: database.url)
        try connection.query("SELECT 1")
        connection.close()

        let failure = #expect(throws: StorageError.self) { try connection.query("SELECT 1") }
        #expect(failure?.code == .closed)
        #expect(throws: StorageError.self) { try connection.execute("SELECT 1") }
        #expect(connection.socket == -1)
        #expect(connection.notifications() == nil)
        connection.rollBack()
        connection.dropSession()
        #expect(throws: StorageError.self) { try connection.query("SELECT 1") }
    }
}
