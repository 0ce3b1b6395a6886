internal import CPostgres

extension PostgresConnection {
    /// Runs `statements` in one flight: libpq's pipeline mode sends them all, with one sync at
    /// the end, and then reads their results, so that the flight costs one network round trip
    /// rather than one per statement. PostgreSQL runs them in order; after one fails it skips the
    /// rest up to the sync (a transaction that was open is then aborted, as after any failure).
    ///
    /// Every statement gets its own result before the flight counts as run: a COMMIT counts as
    /// done only when PostgreSQL answered it. A flight that starts a transaction (BEGIN first, no
    /// COMMIT) on a session the server ended while it was idle runs once more on a new session,
    /// like `query`'s BEGIN: nothing of it can have stayed.
    ///
    /// The statements are prepared first (each once per session), one round trip each, outside
    /// the pipeline. Blocking mode is enough: a flight is a few statements whose arguments and
    /// results fit the socket buffers.
    func run(_ statements: [SQLStatement]) -> SQLFlight {
        guard statements.count > 1, streak_pq_has_pipeline() != 0 else { return .oneByOne(statements, on: self) }
        let idle = handle.map { streak_PQtransactionStatus($0) == PQTRANS_IDLE } ?? false
        let (flight, lost) = pipelined(statements)
        guard flight.failure != nil, lost, idle, statements.first?.sql == "BEGIN",
            !statements.contains(where: { $0.sql == "COMMIT" })
        else { return flight }
        return pipelined(statements).flight
    }

    /// The flight, and whether the connection was found lost during it.
    private func pipelined(_ statements: [SQLStatement]) -> (flight: SQLFlight, lost: Bool) {
        var flight = SQLFlight()
        var names: [String] = []
        do {
            try ensureConnected()
            for statement in statements {
                names.append(try prepared(statement.sql, count: statement.arguments.count))
            }
        } catch {
            flight.failure = (names.count, error)
            return (flight, handle.map { streak_PQstatus($0) == CONNECTION_BAD } ?? false)
        }
        guard streak_PQenterPipelineMode(handle) == 1 else { return (.oneByOne(statements, on: self), false) }
        var sent = 0
        for (statement, name) in zip(statements, names) {
            let queued = try? Self.withParameters(statement.arguments) { values, lengths, formats in
                streak_PQsendQueryPrepared(handle, name, Int32(statement.arguments.count), values, lengths, formats, 0)
            }
            guard queued == 1 else { break }
            sent += 1
        }
        let synced = streak_PQpipelineSync(handle) == 1
        for index in 0..<sent {
            let outcome = nextResult()
            guard flight.failure == nil else { continue }
            switch outcome {
            case .success(let rows): flight.rows.append(rows)
            case .failure(let error): flight.failure = (index, error)
            }
        }
        if synced { drainToSync() }
        if sent < statements.count, flight.failure == nil {
            flight.failure = (sent, StorageError(.io, "PostgreSQL pipeline send failed: \(connectionMessage)"))
        }
        let lost = streak_PQstatus(handle) == CONNECTION_BAD
        if streak_PQexitPipelineMode(handle) != 1 {
            // Results left unread: this session's state is unknown, so it is started anew (its
            // open transaction, if any, rolls back) and the flight fails unless it already did.
            streak_PQreset(handle)
            forgetPreparedStatements()
            if flight.failure == nil {
                flight.failure = (
                    0, StorageError(.io, "PostgreSQL pipeline left results unread; the session was reset")
                )
            }
        }
        return (flight, lost)
    }

    /// The rows of the next statement in the pipeline, or its failure. Exactly one result is
    /// expected, then the NULL that ends the statement's results; none at all means the
    /// connection was lost.
    private func nextResult() -> Result<[[SQLValue]], StorageError> {
        var outcome: Result<[[SQLValue]], StorageError>?
        while let result = streak_PQgetResult(handle) {
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
        return outcome ?? .failure(StorageError(.io, "PostgreSQL gave no result: \(connectionMessage)"))
    }

    /// Reads up to the sync's result, the end of the flight.
    private func drainToSync() {
        while streak_PQstatus(handle) == CONNECTION_OK, let result = streak_PQgetResult(handle) {
            let status = streak_PQresultStatus(result)
            streak_PQclear(result)
            if status == PGRES_PIPELINE_SYNC { return }
        }
    }
}
