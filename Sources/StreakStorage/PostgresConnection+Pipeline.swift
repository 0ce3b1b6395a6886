internal import CPostgres

extension PostgresConnection {
    /// Runs `statements` in one flight: libpq's pipeline mode sends them all, with one sync at
    /// the end, and then reads their results, so that the flight costs one network round trip
    /// rather than one per statement. PostgreSQL runs them in order; after one fails it skips the
    /// rest up to the sync (a transaction that was open is then aborted, as after any failure).
    ///
    /// Every statement gets its own result before the flight counts as run: a COMMIT counts as
    /// done only when PostgreSQL answered it. A flight that starts a transaction (BEGIN first, no
    /// COMMIT) on a session the server ended while it was idle, or that failed with an error that
    /// ends the session (`endsSession`, e.g. a read-only session), runs once more on a new
    /// session, like `query`'s BEGIN: nothing of it can have stayed. A flight whose answers did
    /// not come within the timeout is not run again (`outcomeUnknown` says a COMMIT in it may
    /// still have been carried out).
    ///
    /// The statements are prepared first (each once per session), one round trip each, outside
    /// the pipeline. The whole flight, connecting and preparing included, waits at most `timeout`.
    func run(_ statements: [SQLStatement]) -> SQLFlight {
        guard statements.count > 1, streak_pq_has_pipeline() != 0 else { return .oneByOne(statements, on: self) }
        let deadline = begin()
        let opens = statements.first?.sql == "BEGIN"
        do {
            // A transaction lost with its session fails the rest of it; a BEGIN starts anew.
            try admit(statements[0].sql)
        } catch {
            var flight = SQLFlight()
            flight.failure = (0, error)
            return flight
        }
        let idle = !transactionOpen
        let inTransaction = !idle || opens
        defer { settle(inTransaction: inTransaction) }
        let (flight, lost) = pipelined(statements, until: deadline)
        guard flight.failure != nil, lost, !timedOut, idle, opens,
            !statements.contains(where: { $0.sql == "COMMIT" })
        else { return flight }
        dropSession()
        return pipelined(statements, until: deadline).flight
    }

    /// The flight, and whether the session was found lost (or to be dropped) during it.
    private func pipelined(
        _ statements: [SQLStatement],
        until deadline: ContinuousClock.Instant
    ) -> (flight: SQLFlight, lost: Bool) {
        var flight = SQLFlight()
        var names: [String] = []
        do {
            try ensureConnected(until: deadline)
        } catch {
            flight.failure = (0, error)
            return (flight, false)
        }
        do {
            for statement in statements {
                names.append(try prepared(statement.sql, count: statement.arguments.count, until: deadline))
            }
        } catch {
            flight.failure = (names.count, error)
            return (flight, sessionLost)
        }
        guard streak_PQenterPipelineMode(handle) == 1 else { return (.oneByOne(statements, on: self), false) }
        var sent = 0
        for (statement, name) in zip(statements, names) {
            let queued = try? PostgresValues.withParameters(statement.arguments) { values, lengths, formats in
                streak_PQsendQueryPrepared(handle, name, Int32(statement.arguments.count), values, lengths, formats, 0)
            }
            guard queued == 1 else { break }
            sent += 1
        }
        let synced = streak_PQpipelineSync(handle) == 1
        do {
            try flush(until: deadline)
            for index in 0..<sent {
                let outcome = try nextOutcome(until: deadline)
                guard flight.failure == nil else { continue }
                switch outcome {
                case .success(let rows): flight.rows.append(rows)
                case .failure(let error): flight.failure = (index, error)
                }
            }
            if synced { try drainToSync(until: deadline) }
        } catch {
            // Timed out (the connection is abandoned) or lost while sending.
            if flight.failure == nil { flight.failure = (flight.rows.count, error) }
            return (flight, sessionLost)
        }
        if sent < statements.count, flight.failure == nil {
            flight.failure = (sent, StorageError(.io, "PostgreSQL pipeline send failed: \(connectionMessage)"))
        }
        let lost = sessionLost
        if streak_PQexitPipelineMode(handle) != 1 {
            // Results left unread: this session's state is unknown, so it is dropped (its open
            // transaction, if any, rolls back) and the flight fails unless it already did.
            dropSession()
            if flight.failure == nil {
                flight.failure = (
                    0, StorageError(.io, "PostgreSQL pipeline left results unread; the session was dropped")
                )
            }
        }
        return (flight, lost)
    }

    /// The rows of the next statement in the pipeline, or its failure. Exactly one result is
    /// expected, then the NULL that ends the statement's results; none at all means the
    /// connection was lost. Throws when the results do not come in time.
    private func nextOutcome(
        until deadline: ContinuousClock.Instant
    ) throws(StorageError) -> Result<
        [[SQLValue]], StorageError
    > {
        var outcome: Result<[[SQLValue]], StorageError>?
        while let result = try nextResult(until: deadline) {
            defer { streak_PQclear(result) }
            guard outcome == nil else { continue }
            let status = streak_PQresultStatus(result)
            if status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK {
                outcome = .success(rows(of: result))
            } else if status == PGRES_PIPELINE_ABORTED {
                outcome = .failure(StorageError(.io, "PostgreSQL skipped the statement after an earlier one failed"))
            } else {
                outcome = .failure(error(result, "query"))
                // Without a statement of its own (the connection is lost), nothing more comes.
                if streak_PQstatus(handle) == CONNECTION_BAD { break }
            }
        }
        return outcome ?? .failure(lost("query"))
    }

    /// Reads up to the sync's result, the end of the flight.
    private func drainToSync(until deadline: ContinuousClock.Instant) throws(StorageError) {
        while streak_PQstatus(handle) == CONNECTION_OK, let result = try nextResult(until: deadline) {
            let status = streak_PQresultStatus(result)
            streak_PQclear(result)
            if status == PGRES_PIPELINE_SYNC { return }
        }
    }
}
