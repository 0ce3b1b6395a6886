internal import CPostgres

/// One PostgreSQL connection through libpq, used by one thread at a time (the caller serialises).
///
/// Statements are prepared once per connection and run with their arguments in text form (blobs
/// in binary), so no value is ever spliced into SQL. A connection that breaks (the server
/// restarted) is opened anew by the next statement. The statement that found it broken fails, so
/// nothing is acknowledged that was not committed, unless it cannot have changed anything (it
/// never ran, or it is a read or BEGIN outside a transaction): then it runs again on the new
/// session.
///
/// Every wait for the server is bounded by `timeout`: statements go out through libpq's
/// asynchronous API on a non-blocking socket and their results are awaited with poll(2), as is
/// the connection itself, so that a server that stops answering (hung, stopped, cut off without
/// a reset; its kernel may still acknowledge every packet) cannot hold a caller forever. A
/// connection that times out is abandoned: closed at once, its statement failed with `.io`, and
/// the outcome of what it had sent is unknown (`outcomeUnknown`: a COMMIT that was sent may
/// still be carried out). For `pauseAfterTimeout` after that, statements fail at once instead of
/// waiting again, so that the callers queued behind the one that waited do not each wait a
/// whole timeout in turn; then the next statement connects anew.
///
/// An error that means the session itself is of no more use (`endsSession`: the server shutting
/// down, a connection exception, a read-only session) fails its statement and drops the session,
/// so that the next statement gets a new one: one that sees the database's current state (a
/// promoted standby, `default_transaction_read_only` switched off again).
///
/// A session lost while the caller had a transaction open is not replaced behind its back:
/// every statement fails until the caller gives that transaction up (ROLLBACK, or a new BEGIN).
/// `PostgresSessionState` draws these states and the ways between them.
final class PostgresConnection: SQLSession {
    let dialect = SQLDialect.postgres
    let url: String
    /// The longest wait for the server: to connect, or for the results of one statement or flight.
    let timeout: Duration
    /// The session, if any, and whether the caller's transaction went with the last one.
    var state = PostgresSessionState.none
    /// Until when statements fail at once, after a wait that timed out (about the server, so it
    /// outlives the session that timed out).
    var pausedUntil: ContinuousClock.Instant?
    private(set) var changes = 0
    /// Whether the last operation's wait timed out (and the connection was abandoned). Reset
    /// when an operation begins, like `outcomeUnknown`.
    var timedOut = false
    /// Whether what the last failed operation sent may still have been carried out: the server
    /// did not answer in time, or the connection broke before it answered.
    var outcomeUnknown = false

    /// The default of `timeout`.
    static let defaultTimeout: Duration = .seconds(10)
    /// How long statements fail at once after a wait timed out (at most the timeout).
    static let pauseAfterTimeout: Duration = .seconds(1)

    /// Connects to the database that `url` names (`postgresql://user@host:port/database`, or
    /// libpq's `key=value` form), waiting at most `timeout` for it.
    /// - Throws: `StorageError(.io)` naming libpq's reason when the server cannot be reached.
    init(url: String, timeout: Duration = PostgresConnection.defaultTimeout) throws(StorageError) {
        if let failure = streak_pq_load() { throw StorageError(.io, String(cString: failure)) }
        self.url = url
        self.timeout = timeout
        try connect(until: .now + timeout)
    }

    deinit {
        close()
    }

    /// The open session, if any.
    var session: PostgresSession? {
        if case .open(let session) = state { return session }
        return nil
    }

    /// libpq's connection of the open session, if any.
    var handle: OpaquePointer? { session?.handle }

    /// Closes the connection; later calls fail with `.closed`.
    func close() {
        session?.finish()
        state = .closed
    }

    /// Runs one or more statements without arguments or results (migrations).
    func execute(_ sql: String) throws(StorageError) {
        let deadline = begin()
        let inTransaction = transactionOpen || sql.hasPrefix("BEGIN")
        defer { settle(inTransaction: inTransaction) }
        guard try admit(sql) else { return }
        try ensureConnected(until: deadline)
        let result = try results(of: streak_PQsendQuery(handle, sql), "execute", until: deadline)
        defer { streak_PQclear(result) }
        let status = streak_PQresultStatus(result)
        guard status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK else { throw error(result, "execute") }
    }

    @discardableResult
    func query(_ sql: String, _ arguments: [SQLValue]) throws(StorageError) -> [[SQLValue]] {
        let deadline = begin()
        guard try admit(sql) else { return [] }
        let idle = !transactionOpen
        let inTransaction = !idle || sql == "BEGIN"
        defer { settle(inTransaction: inTransaction) }
        try ensureConnected(until: deadline)
        var executed = false
        do {
            return try run(sql, arguments, executed: &executed, until: deadline)
        } catch {
            // A session the server ended while idle shows only when used. A statement that did
            // not run, or a read, or BEGIN, is tried once more on a new session; any other
            // statement may have committed before the connection broke, so it fails. One that
            // timed out is never tried again (that would wait a second time).
            guard idle, !timedOut, sessionLost, !executed || Self.repeatable(sql) else { throw error }
            dropSession()
            try ensureConnected(until: deadline)
            return try run(sql, arguments, executed: &executed, until: deadline)
        }
    }

    private static func repeatable(_ sql: String) -> Bool {
        sql == "BEGIN" || sql.hasPrefix("SELECT ")
    }

    private func run(
        _ sql: String,
        _ arguments: [SQLValue],
        executed: inout Bool,
        until deadline: ContinuousClock.Instant
    ) throws(StorageError) -> [[SQLValue]] {
        let name = try prepared(sql, count: arguments.count, until: deadline)
        executed = true
        let sent = try PostgresValues.withParameters(arguments) { values, lengths, formats in
            streak_PQsendQueryPrepared(handle, name, Int32(arguments.count), values, lengths, formats, 0)
        }
        let result = try results(of: sent, "query", until: deadline)
        defer { streak_PQclear(result) }
        let status = streak_PQresultStatus(result)
        guard status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK else { throw error(result, "query") }
        return rows(of: result)
    }

    /// The server's name of the prepared statement of `sql`, preparing it first on this session.
    func prepared(_ sql: String, count: Int, until deadline: ContinuousClock.Instant) throws(StorageError) -> String {
        guard let session else { throw lost("prepare") }
        if let name = session.statements[sql] { return name }
        let name = "s\(session.statements.count + 1)"
        let numbered = PostgresValues.numberingPlaceholders(sql)
        let sent = streak_PQsendPrepare(session.handle, name, numbered, Int32(count), nil)
        let result = try results(of: sent, "prepare", until: deadline)
        defer { streak_PQclear(result) }
        guard streak_PQresultStatus(result) == PGRES_COMMAND_OK else { throw error(result, "prepare") }
        session.statements[sql] = name
        return name
    }

    /// The rows of a successful statement's result (none for a command); sets `changes`.
    func rows(of result: OpaquePointer?) -> [[SQLValue]] {
        changes = Int(String(cString: streak_PQcmdTuples(result))) ?? 0
        guard streak_PQresultStatus(result) == PGRES_TUPLES_OK else { return [] }
        let columns = streak_PQnfields(result)
        let types = (0..<columns).map { streak_PQftype(result, $0) }
        return (0..<streak_PQntuples(result)).map { row in
            (0..<columns).map { column in PostgresValues.value(result, row, column, type: types[Int(column)]) }
        }
    }

    /// Rolls the open transaction back; nothing to do when there is none, or when its session
    /// is gone (the transaction went with it).
    func rollBack() {
        if case .transactionLost = state {
            state = .none
            return
        }
        guard let session, session.isWorking, streak_PQtransactionStatus(session.handle) != PQTRANS_IDLE else { return }
        _ = try? query("ROLLBACK")
    }

    /// Whether the open transaction failed (or its connection is gone).
    var transactionAborted: Bool {
        guard let handle else { return true }
        let status = streak_PQtransactionStatus(handle)
        return status == PQTRANS_INERROR || status == PQTRANS_UNKNOWN
    }

    /// The socket to watch for notifications (after `execute("LISTEN ...")`), or -1 when closed.
    var socket: Int32 { handle.map { streak_PQsocket($0) } ?? -1 }

    /// Reads what arrived on the socket and returns the payloads of the notifications received;
    /// nil when the connection is broken or closed.
    func notifications() -> [String]? {
        guard let session, streak_PQconsumeInput(session.handle) == 1, session.isWorking else { return nil }
        var payloads: [String] = []
        while let notice = streak_PQnotifies(session.handle) {
            payloads.append(String(cString: notice.pointee.extra))
            streak_PQfreemem(notice)
        }
        return payloads
    }
}
