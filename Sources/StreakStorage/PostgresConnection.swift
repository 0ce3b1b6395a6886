internal import CPostgres
import FoundationEssentials
import Glibc
import StreakPOSIX

/// One PostgreSQL connection through libpq, used by one thread at a time (the caller serialises).
///
/// Statements are prepared once per connection and run with their arguments in text form (blobs
/// in binary), so no value is ever spliced into SQL. A connection that breaks (the server
/// restarted) is reset. The statement that found it broken fails, so nothing is acknowledged
/// that was not committed, unless it cannot have changed anything (it never ran, or it is a read
/// or BEGIN outside a transaction): then it runs again on the new session.
final class PostgresConnection: SQLSession {
    let dialect = SQLDialect.postgres
    private(set) var handle: OpaquePointer?
    /// Prepared statements by their SQL (with `?` placeholders): the name given to the server.
    private var statements: [String: String] = [:]
    private(set) var changes = 0

    /// Connects to the database that `url` names (`postgresql://user@host:port/database`, or
    /// libpq's `key=value` form).
    /// - Throws: `StorageError(.io)` naming libpq's reason when the server cannot be reached.
    init(url: String) throws(StorageError) {
        if let failure = streak_pq_load() { throw StorageError(.io, String(cString: failure)) }
        handle = streak_PQconnectdb(url)
        guard streak_PQstatus(handle) == CONNECTION_OK else {
            let message = Self.message(of: handle)
            streak_PQfinish(handle)
            handle = nil
            throw StorageError(.io, "cannot connect to PostgreSQL: \(message)")
        }
        configure()
    }

    deinit {
        close()
    }

    /// Closes the connection; later calls fail with `.closed`.
    func close() {
        guard let handle else { return }
        streak_PQfinish(handle)
        self.handle = nil
        statements = [:]
    }

    /// Runs one or more statements without arguments or results (migrations).
    func execute(_ sql: String) throws(StorageError) {
        try ensureConnected()
        let result = streak_PQexec(handle, sql)
        defer { streak_PQclear(result) }
        let status = streak_PQresultStatus(result)
        guard status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK else { throw error(result, "execute") }
    }

    @discardableResult
    func query(_ sql: String, _ arguments: [SQLValue]) throws(StorageError) -> [[SQLValue]] {
        try ensureConnected()
        let idle = streak_PQtransactionStatus(handle) == PQTRANS_IDLE
        var executed = false
        do {
            return try run(sql, arguments, executed: &executed)
        } catch {
            // A session the server ended while idle shows only when used. A statement that did
            // not run, or a read, or BEGIN, is tried once more on a new session; any other
            // statement may have committed before the connection broke, so it fails.
            guard idle, streak_PQstatus(handle) == CONNECTION_BAD, !executed || Self.repeatable(sql) else {
                throw error
            }
            try ensureConnected()
            return try run(sql, arguments, executed: &executed)
        }
    }

    private static func repeatable(_ sql: String) -> Bool {
        sql == "BEGIN" || sql.hasPrefix("SELECT ")
    }

    private func run(_ sql: String, _ arguments: [SQLValue], executed: inout Bool) throws(StorageError) -> [[SQLValue]]
    {
        let name = try prepared(sql, count: arguments.count)
        executed = true
        let result = try Self.withParameters(arguments) { values, lengths, formats in
            streak_PQexecPrepared(handle, name, Int32(arguments.count), values, lengths, formats, 0)
        }
        defer { streak_PQclear(result) }
        let status = streak_PQresultStatus(result)
        guard status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK else { throw error(result, "query") }
        return rows(of: result)
    }

    /// The rows of a successful statement's result (none for a command); sets `changes`.
    func rows(of result: OpaquePointer?) -> [[SQLValue]] {
        changes = Int(String(cString: streak_PQcmdTuples(result))) ?? 0
        guard streak_PQresultStatus(result) == PGRES_TUPLES_OK else { return [] }
        let columns = streak_PQnfields(result)
        let types = (0..<columns).map { streak_PQftype(result, $0) }
        return (0..<streak_PQntuples(result)).map { row in
            (0..<columns).map { column in Self.value(result, row, column, type: types[Int(column)]) }
        }
    }

    /// Whether the open transaction failed (or the connection is gone).
    func rollBack() {
        _ = try? query("ROLLBACK")
    }

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
        guard let handle, streak_PQconsumeInput(handle) == 1, streak_PQstatus(handle) == CONNECTION_OK else {
            return nil
        }
        var payloads: [String] = []
        while let notice = streak_PQnotifies(handle) {
            payloads.append(String(cString: notice.pointee.extra))
            streak_PQfreemem(notice)
        }
        return payloads
    }

    /// Resets a connection that broke; the prepared statements went with it. Inside a
    /// transaction a lost connection fails the statement, and with it the transaction: nothing
    /// half-done is acknowledged.
    func ensureConnected() throws(StorageError) {
        guard let handle else { throw StorageError.storeClosed }
        guard streak_PQstatus(handle) != CONNECTION_OK else { return }
        statements = [:]
        streak_PQreset(handle)
        guard streak_PQstatus(handle) == CONNECTION_OK else {
            throw StorageError(.io, "the connection to PostgreSQL is lost: \(Self.message(of: handle))")
        }
        configure()
    }

    /// UTF-8 text, and the server's notices ("relation already exists, skipping") kept off stderr.
    private func configure() {
        streak_PQsetClientEncoding(handle, "UTF8")
        streak_PQsetNoticeProcessor(handle, { _, _ in }, nil)
    }

    func prepared(_ sql: String, count: Int) throws(StorageError) -> String {
        if let name = statements[sql] { return name }
        let name = "s\(statements.count + 1)"
        let result = streak_PQprepare(handle, name, Self.numberingPlaceholders(sql), Int32(count), nil)
        defer { streak_PQclear(result) }
        guard streak_PQresultStatus(result) == PGRES_COMMAND_OK else { throw error(result, "prepare") }
        statements[sql] = name
        return name
    }

    /// `sql` with its `?` placeholders (outside string literals) numbered `$1`, `$2`, ...
    static func numberingPlaceholders(_ sql: String) -> String {
        var result = ""
        var number = 0
        var inLiteral = false
        for character in sql {
            if character == "'" { inLiteral.toggle() }
            if character == "?" && !inLiteral {
                number += 1
                result += "$\(number)"
            } else {
                result.append(character)
            }
        }
        return result
    }

    /// Calls `body` with libpq's parameter arrays: integers and text as text, blobs as binary.
    /// - Throws: `.io` when a parameter's buffer cannot be allocated (a NULL would be sent as SQL NULL).
    static func withParameters<T>(
        _ arguments: [SQLValue],
        _ body: (UnsafePointer<UnsafePointer<CChar>?>?, UnsafePointer<Int32>?, UnsafePointer<Int32>?) -> T
    ) throws(StorageError) -> T {
        var buffers: [UnsafeMutablePointer<CChar>?] = []
        var lengths: [Int32] = []
        var formats: [Int32] = []
        defer { for buffer in buffers { free(buffer) } }
        for argument in arguments {
            switch argument {
            case .null:
                buffers.append(nil)
                lengths.append(0)
                formats.append(0)
            case .integer(let value):
                buffers.append(try allocated(strdup(String(value))))
                lengths.append(0)
                formats.append(0)
            case .text(let value):
                buffers.append(try allocated(strdup(value)))
                lengths.append(0)
                formats.append(0)
            case .blob(let bytes):
                // malloc, like strdup above: every buffer is released with free.
                let buffer = try allocated(malloc(max(bytes.count, 1))?.assumingMemoryBound(to: CChar.self))
                bytes.withUnsafeBytes { raw in
                    if let base = raw.baseAddress { memcpy(buffer, base, bytes.count) }
                }
                buffers.append(buffer)
                lengths.append(Int32(bytes.count))
                formats.append(1)
            }
        }
        let values = buffers.map { UnsafePointer($0) }
        return values.withUnsafeBufferPointer { values in
            lengths.withUnsafeBufferPointer { lengths in
                formats.withUnsafeBufferPointer { formats in
                    body(values.baseAddress, lengths.baseAddress, formats.baseAddress)
                }
            }
        }
    }

    /// `buffer`, or `.io` "out of memory" when the allocation that made it failed.
    private static func allocated(
        _ buffer: UnsafeMutablePointer<CChar>?
    ) throws(StorageError) -> UnsafeMutablePointer<CChar> {
        guard let buffer else { throw StorageError(.io, "out of memory for a query parameter") }
        return buffer
    }

    private static let integerTypes: Set<UInt32> = [20, 21, 23, 26]  // int8, int2, int4, oid
    private static let byteaType: UInt32 = 17
    private static let boolType: UInt32 = 16

    private static func value(_ result: OpaquePointer?, _ row: Int32, _ column: Int32, type: UInt32) -> SQLValue {
        guard streak_PQgetisnull(result, row, column) == 0, let text = streak_PQgetvalue(result, row, column) else {
            return .null
        }
        let string = String(cString: text)
        if integerTypes.contains(type) { return Int64(string).map(SQLValue.integer) ?? .null }
        if type == boolType { return .integer(string == "t" ? 1 : 0) }
        if type == byteaType { return .blob(hexBytes(string)) }
        return .text(string)
    }

    /// The bytes of bytea's hex output (`\x0a1b...`).
    private static func hexBytes(_ string: String) -> [UInt8] {
        let digits = Array(string.utf8.dropFirst(2))
        var bytes: [UInt8] = []
        bytes.reserveCapacity(digits.count / 2)
        var index = 0
        while index + 1 < digits.count {
            guard let high = hexValue(digits[index]), let low = hexValue(digits[index + 1]) else { break }
            bytes.append(high << 4 | low)
            index += 2
        }
        return bytes
    }

    private static func hexValue(_ digit: UInt8) -> UInt8? {
        switch digit {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): digit - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): digit - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): digit - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    /// The last error libpq reported on this session.
    var connectionMessage: String { Self.message(of: handle) }

    /// Forgets the prepared statements (the session was started anew without them).
    func forgetPreparedStatements() {
        statements = [:]
    }

    private static func message(of handle: OpaquePointer?) -> String {
        guard let handle, let text = streak_PQerrorMessage(handle) else { return "out of memory" }
        return String(cString: text).trimmingWhitespace()
    }

    /// A failed statement as a StorageError: a unique violation is `.alreadyExists`, data
    /// corruption `.corrupt`, anything else (a lost connection, a conflict) `.io`.
    func error(_ result: OpaquePointer?, _ operation: String) -> StorageError {
        let state = streak_PQresultErrorField(result, Int32(UInt8(ascii: "C"))).map { String(cString: $0) } ?? ""
        let detail = streak_PQresultErrorMessage(result).map { String(cString: $0) } ?? ""
        let message = detail.isEmpty ? Self.message(of: handle) : detail.trimmingWhitespace()
        let code: StorageError.Code =
            switch state {
            case "23505": .alreadyExists
            case "XX001", "XX002": .corrupt
            case "53100": .diskFull
            default: .io
            }
        let text = "PostgreSQL \(operation) failed (\(state.isEmpty ? "no state" : state)): \(message)"
        // A client may see an ALREADY_EXISTS message: PostgreSQL's own words (with their DETAIL
        // lines, which quote the row) stay in the log.
        if code == .alreadyExists {
            return StorageError(code, "already exists", cause: EngineMessage(text))
        }
        return StorageError(code, text)
    }
}
