internal import CPostgres
import StreakPOSIX

/// Failures: libpq's and the server's words, as `StorageError`s.
extension PostgresConnection {
    /// The failure of an operation that found the connection broken.
    func lost(_ operation: String) -> StorageError {
        outcomeUnknown = true
        return StorageError(.io, "PostgreSQL \(operation) failed: the connection is lost: \(connectionMessage)")
    }

    /// The last error libpq reported on this session.
    var connectionMessage: String { Self.message(of: handle) }

    static func message(of handle: OpaquePointer?) -> String {
        guard let handle, let text = streak_PQerrorMessage(handle) else { return "out of memory" }
        return String(cString: text).trimmingWhitespace()
    }

    /// Whether an error with SQLSTATE `state` means the session is of no more use, while a new
    /// one may work: a connection exception (class 08); the server shutting down or not yet
    /// accepting (57P01 admin_shutdown, 57P02 crash_shutdown, 57P03 cannot_connect_now); and
    /// 25006 read_only_sql_transaction, since a session keeps the default it started with
    /// (a standby promoted since, `default_transaction_read_only` switched off again).
    static func endsSession(_ state: String) -> Bool {
        state.hasPrefix("08") || state == "57P01" || state == "57P02" || state == "57P03" || state == "25006"
    }

    /// A failed statement as a StorageError, its code from the SQLSTATE (`EngineFailure`).
    /// PostgreSQL's message (with its DETAIL lines, which quote the row) is kept in the cause,
    /// marked as possibly holding user data; the StorageError's message and the cause's
    /// description name only the SQLSTATE and the constraint, table and column. An error that
    /// ends the session (`endsSession`) has the session dropped at the end of the operation.
    func error(_ result: OpaquePointer?, _ operation: String) -> StorageError {
        func field(_ code: UInt8) -> String? {
            streak_PQresultErrorField(result, Int32(code)).map { String(cString: $0) }.flatMap { $0.isEmpty ? nil : $0 }
        }
        let state = field(UInt8(ascii: "C")) ?? ""
        let detail = streak_PQresultErrorMessage(result).map { String(cString: $0) } ?? ""
        let text = detail.isEmpty ? Self.message(of: handle) : detail.trimmingWhitespace()
        var note: String?
        if Self.endsSession(state) {
            session?.ending = true
            note = "the session is dropped: the next statement opens a new one"
        } else if state.isEmpty, sessionLost {
            // libpq's own words: the connection broke before the server answered.
            outcomeUnknown = true
        }
        // The schema objects PostgreSQL names (PG_DIAG_CONSTRAINT_NAME, _TABLE_NAME, _COLUMN_NAME).
        let fields: [(String, UInt8)] = [
            ("constraint", UInt8(ascii: "n")), ("table", UInt8(ascii: "t")), ("column", UInt8(ascii: "c")),
        ]
        let objects = fields.compactMap { name, code in field(code).map { "\(name) \($0)" } }
        let engine = EngineError(
            engine: "PostgreSQL",
            failure: EngineFailure.postgres(state),
            code: state.isEmpty ? "no state" : state,
            objects: objects,
            text: text,
            textMayHoldUserData: true
        )
        return StorageError(engine: engine, operation: operation, note: note)
    }
}
