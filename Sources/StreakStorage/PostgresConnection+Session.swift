internal import CPostgres
import Glibc

/// Operations, and the session under them (`PostgresSessionState`).
extension PostgresConnection {
    /// TCP keepalives, so that an idle connection to a host that vanished (the listening one)
    /// breaks within about 25 s: before the URL, which may set others.
    private static let connectionDefaults = [
        ("keepalives", "1"), ("keepalives_idle", "10"), ("keepalives_interval", "5"), ("keepalives_count", "3"),
    ]

    /// Starts an operation (a statement, a flight): its deadline.
    func begin() -> ContinuousClock.Instant {
        timedOut = false
        outcomeUnknown = false
        return .now + timeout
    }

    /// Whether the caller has a transaction open on this session.
    var transactionOpen: Bool {
        switch state {
        case .transactionLost: true
        case .open(let session): streak_PQtransactionStatus(session.handle) != PQTRANS_IDLE
        case .none, .closed: false
        }
    }

    /// Whether the session is gone or going: broken, abandoned, or to be dropped for its error.
    var sessionLost: Bool { session?.isLost ?? true }

    /// After a session lost with the caller's transaction open: false for a ROLLBACK (which
    /// ends that), true for a BEGIN (a new transaction), else throws.
    @discardableResult
    func admit(_ sql: String) throws(StorageError) -> Bool {
        guard case .transactionLost = state else { return true }
        if sql == "ROLLBACK" {
            state = .none
            return false
        }
        guard sql.hasPrefix("BEGIN") else {
            throw StorageError(.io, "the transaction was lost with its connection to PostgreSQL")
        }
        state = .none
        return true
    }

    /// Ends an operation: drops a session whose error ended it, and notes a transaction lost
    /// with its session (`inTransaction`: the caller had one open, or the operation opened one).
    func settle(inTransaction: Bool) {
        if session?.ending == true { dropSession() }
        guard inTransaction, sessionLost else { return }
        switch state {
        case .open, .none:
            // A broken session is of no more use: the transaction went with it.
            dropSession()
            state = .transactionLost
        case .transactionLost, .closed:
            break
        }
    }

    /// Closes the session without waiting for anything; the next statement opens a new one.
    /// A lost transaction stays lost, and a closed connection closed.
    func dropSession() {
        guard let session else { return }
        session.finish()
        state = .none
    }

    /// Makes sure there is a working session: opens a new one when it broke or was dropped.
    func ensureConnected(until deadline: ContinuousClock.Instant) throws(StorageError) {
        if case .closed = state { throw StorageError.storeClosed }
        if session?.isWorking == true { return }
        try connect(until: deadline)
    }

    /// Opens a new session (after closing the old one), waiting until `deadline` at most.
    func connect(until deadline: ContinuousClock.Instant) throws(StorageError) {
        dropSession()
        if let pausedUntil, ContinuousClock.now < pausedUntil {
            throw StorageError(
                .io,
                "PostgreSQL did not answer within \(Self.seconds(timeout)) a moment ago; not waiting for it again yet"
            )
        }
        let keywords = Self.connectionDefaults.map(\.0) + ["dbname"]
        let values = Self.connectionDefaults.map(\.1) + [url]
        let started = try PostgresValues.withCStrings(keywords) { keywords throws(StorageError) in
            try PostgresValues.withCStrings(values) { values throws(StorageError) in
                streak_PQconnectStartParams(keywords, values, 1)
            }
        }
        guard let started else { throw StorageError(.io, "cannot connect to PostgreSQL: out of memory") }
        state = .open(PostgresSession(started))
        var polling = PGRES_POLLING_WRITING
        while true {
            if streak_PQstatus(started) == CONNECTION_BAD || polling == PGRES_POLLING_FAILED {
                let message = Self.message(of: started)
                dropSession()
                throw StorageError(.io, "cannot connect to PostgreSQL: \(message)")
            }
            if polling == PGRES_POLLING_OK { break }
            do {
                _ = try wait(for: Int16(polling == PGRES_POLLING_READING ? POLLIN : POLLOUT), until: deadline)
            } catch {
                throw StorageError(.io, "cannot connect to PostgreSQL: \(error.message)")
            }
            polling = streak_PQconnectPoll(started)
        }
        // Every later wait is this type's poll with a deadline, never one inside libpq.
        guard streak_PQsetnonblocking(started, 1) == 0 else {
            let message = Self.message(of: started)
            dropSession()
            throw StorageError(.io, "cannot connect to PostgreSQL: \(message)")
        }
        // UTF-8 text, and the server's notices ("relation already exists, skipping") kept off stderr.
        streak_PQsetClientEncoding(started, "UTF8")
        streak_PQsetNoticeProcessor(started, { _, _ in }, nil)
    }

    /// Gives up on the connection after a wait timed out (see the type's comment).
    func abandon() {
        dropSession()
        timedOut = true
        outcomeUnknown = true
        pausedUntil = .now + min(Self.pauseAfterTimeout, timeout)
    }
}
