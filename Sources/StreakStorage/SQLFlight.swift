/// One statement and its arguments, for `SQLSession.run(_:)`.
struct SQLStatement {
    let sql: String
    let arguments: [SQLValue]

    init(_ sql: String, _ arguments: [SQLValue] = []) {
        self.sql = sql
        self.arguments = arguments
    }
}

/// What a flight of statements (`SQLSession.run(_:)`) returned: the rows of each statement that
/// ran, in order, up to the first that failed, and that failure. The statements after a failed
/// one did not run (PostgreSQL skips them; the transaction is then aborted).
struct SQLFlight {
    /// The rows of each statement before `failure`, by position in the flight.
    var rows: [[[SQLValue]]] = []
    /// The first statement that failed (its position in the flight) and why.
    var failure: (index: Int, error: StorageError)?

    /// Runs `statements` one after the other on `session`, stopping at the first failure (an
    /// engine without pipelining, or a PostgreSQL client library without it).
    static func oneByOne(_ statements: [SQLStatement], on session: any SQLSession) -> SQLFlight {
        var flight = SQLFlight()
        for (index, statement) in statements.enumerated() {
            do {
                flight.rows.append(try session.query(statement.sql, statement.arguments))
            } catch {
                flight.failure = (index, error)
                break
            }
        }
        return flight
    }
}
