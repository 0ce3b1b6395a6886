internal import CPostgres

/// Where a `PostgresConnection` stands with the server between its operations.
///
/// ```
///            connect                       close
///   none ─────────────▶ open ────────────────────────▶ closed
///    ▲  ◀───────────────  │ (dropped: broken, timed out,        (from any state)
///    │   dropSession      │  or an error that ends it)
///    │                    ▼
///    └──────────── transactionLost   (the session went with the caller's transaction open)
///     ROLLBACK or BEGIN
/// ```
enum PostgresSessionState {
    /// No session: the next statement opens one (unless connecting is paused after a timeout).
    case none
    /// A session that libpq holds; it may have broken since (`PostgresSession.isWorking`).
    case open(PostgresSession)
    /// The session was lost while the caller had a transaction open. It is not replaced behind
    /// the caller's back: statements fail until the caller gives the transaction up (ROLLBACK,
    /// or a new BEGIN).
    case transactionLost
    /// Closed by its owner: statements fail with `.closed`.
    case closed
}

/// One session with the server: libpq's connection and what belongs to it alone, the statements
/// prepared on it.
final class PostgresSession {
    /// libpq's connection (`PGconn *`).
    let handle: OpaquePointer
    /// Prepared statements by their SQL (with `?` placeholders): the name given to the server.
    var statements: [String: String] = [:]
    /// Set when the server's error means the session is of no more use; it is dropped once the
    /// operation's results are read.
    var ending = false

    init(_ handle: OpaquePointer) {
        self.handle = handle
    }

    /// Whether libpq counts the connection as working.
    var isWorking: Bool { streak_PQstatus(handle) == CONNECTION_OK }

    /// Whether the session is broken, or to be dropped for its error.
    var isLost: Bool { ending || !isWorking }

    /// Closes the connection without waiting for anything: the goodbye message is sent only if
    /// it fits the socket buffer (the socket is non-blocking once connected). Called once, by the
    /// state change that lets the session go.
    func finish() {
        streak_PQfinish(handle)
    }
}
