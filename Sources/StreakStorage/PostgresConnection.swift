internal import CPostgres
import FoundationEssentials
import Glibc
import StreakPOSIX

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
final class PostgresConnection: SQLSession {
    let dialect = SQLDialect.postgres
    private let url: String
    /// The longest wait for the server: to connect, or for the results of one statement or flight.
    let timeout: Duration
    private(set) var handle: OpaquePointer?
    private var closed = false
    /// Prepared statements by their SQL (with `?` placeholders): the name given to the server.
    private var statements: [String: String] = [:]
    private(set) var changes = 0
    /// Until when statements fail at once, after a wait that timed out.
    private var pausedUntil: ContinuousClock.Instant?
    /// Whether the last operation's wait timed out (and the connection was abandoned).
    private(set) var timedOut = false
    /// Whether what the last failed operation sent may still have been carried out: the server
    /// did not answer in time, or the connection broke before it answered.
    private(set) var outcomeUnknown = false
    /// Set when the server's error means the session is unusable; the session is dropped once
    /// the operation's results are read.
    private var sessionEnding = false
    /// Whether the session was lost with the caller's transaction open (see the type's comment).
    private var lostTransaction = false

    /// The default of `timeout`.
    static let defaultTimeout: Duration = .seconds(10)
    /// How long statements fail at once after a wait timed out (at most the timeout).
    static let pauseAfterTimeout: Duration = .seconds(1)
    /// TCP keepalives, so that an idle connection to a host that vanished (the listening one)
    /// breaks within about 25 s: before the URL, which may set others.
    private static let connectionDefaults = [
        ("keepalives", "1"), ("keepalives_idle", "10"), ("keepalives_interval", "5"), ("keepalives_count", "3"),
    ]

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

    /// Closes the connection; later calls fail with `.closed`.
    func close() {
        closed = true
        guard let handle else { return }
        streak_PQfinish(handle)
        self.handle = nil
        statements = [:]
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
        let sent = try Self.withParameters(arguments) { values, lengths, formats in
            streak_PQsendQueryPrepared(handle, name, Int32(arguments.count), values, lengths, formats, 0)
        }
        let result = try results(of: sent, "query", until: deadline)
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

    /// Rolls the open transaction back; nothing to do when there is none, or when its session
    /// is gone (the transaction went with it).
    func rollBack() {
        if lostTransaction {
            lostTransaction = false
            return
        }
        guard let handle, streak_PQstatus(handle) == CONNECTION_OK,
            streak_PQtransactionStatus(handle) != PQTRANS_IDLE
        else { return }
        _ = try? query("ROLLBACK")
    }

    /// Whether the open transaction failed (or its connection is gone).
    var transactionAborted: Bool {
        if lostTransaction { return true }
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

    // MARK: - Operations, sessions and bounded waits

    /// Starts an operation (a statement, a flight): its deadline.
    func begin() -> ContinuousClock.Instant {
        timedOut = false
        outcomeUnknown = false
        return .now + timeout
    }

    /// Whether the caller has a transaction open on this session.
    var transactionOpen: Bool {
        if lostTransaction { return true }
        guard let handle else { return false }
        return streak_PQtransactionStatus(handle) != PQTRANS_IDLE
    }

    /// Whether the session is gone or going: broken, abandoned, or to be dropped for its error.
    var sessionLost: Bool {
        guard let handle else { return true }
        return sessionEnding || streak_PQstatus(handle) != CONNECTION_OK
    }

    /// After a session lost with the caller's transaction open: false for a ROLLBACK (which
    /// ends that), true for a BEGIN (a new transaction), else throws.
    @discardableResult
    func admit(_ sql: String) throws(StorageError) -> Bool {
        guard lostTransaction else { return true }
        if sql == "ROLLBACK" {
            lostTransaction = false
            return false
        }
        guard sql.hasPrefix("BEGIN") else {
            throw StorageError(.io, "the transaction was lost with its connection to PostgreSQL")
        }
        lostTransaction = false
        return true
    }

    /// Ends an operation: drops a session whose error ended it, and notes a transaction lost
    /// with its session (`inTransaction`: the caller had one open, or the operation opened one).
    func settle(inTransaction: Bool) {
        if sessionEnding { dropSession() }
        if inTransaction, sessionLost, !closed { lostTransaction = true }
    }

    /// Closes the session without waiting for anything; the next statement opens a new one.
    func dropSession() {
        sessionEnding = false
        statements = [:]
        guard let handle else { return }
        // Non-blocking: the goodbye message is sent only if it fits the socket buffer.
        streak_PQfinish(handle)
        self.handle = nil
    }

    /// Makes sure there is a working session: opens a new one when it broke or was dropped.
    func ensureConnected(until deadline: ContinuousClock.Instant) throws(StorageError) {
        guard !closed else { throw StorageError.storeClosed }
        if let handle, streak_PQstatus(handle) == CONNECTION_OK { return }
        try connect(until: deadline)
    }

    /// Opens a new session (after closing the old one), waiting until `deadline` at most.
    private func connect(until deadline: ContinuousClock.Instant) throws(StorageError) {
        dropSession()
        if let pausedUntil, ContinuousClock.now < pausedUntil {
            throw StorageError(
                .io,
                "PostgreSQL did not answer within \(Self.seconds(timeout)) a moment ago; not waiting for it again yet"
            )
        }
        let keywords = Self.connectionDefaults.map(\.0) + ["dbname"]
        let values = Self.connectionDefaults.map(\.1) + [url]
        let started = try Self.withCStrings(keywords) { keywords throws(StorageError) in
            try Self.withCStrings(values) { values throws(StorageError) in
                streak_PQconnectStartParams(keywords, values, 1)
            }
        }
        guard let started else { throw StorageError(.io, "cannot connect to PostgreSQL: out of memory") }
        handle = started
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
        configure()
    }

    /// Waits until the socket is ready for `events` (poll(2) flags), and returns those it is
    /// ready for. At `deadline` the connection is abandoned and the wait throws.
    func wait(for events: Int16, until deadline: ContinuousClock.Instant) throws(StorageError) -> Int16 {
        guard let handle else { throw StorageError(.io, "the connection to PostgreSQL is lost") }
        var descriptor = pollfd(fd: streak_PQsocket(handle), events: events, revents: 0)
        guard descriptor.fd >= 0 else { throw StorageError(.io, "the connection to PostgreSQL is lost") }
        while true {
            let left = deadline - ContinuousClock.now
            let milliseconds =
                left <= .zero
                ? 0
                : Int32(
                    clamping: left.components.seconds * 1000 + left.components.attoseconds / 1_000_000_000_000_000 + 1
                )
            let ready = poll(&descriptor, 1, milliseconds)
            if ready > 0 { return descriptor.revents }
            if ready < 0 && errno == EINTR { continue }
            if ready == 0 && ContinuousClock.now < deadline { continue }
            abandon()
            throw StorageError(
                .io,
                "PostgreSQL did not answer within \(Self.seconds(timeout)); the connection was abandoned"
            )
        }
    }

    /// Gives up on the connection after a wait timed out (see the type's comment).
    private func abandon() {
        dropSession()
        timedOut = true
        outcomeUnknown = true
        pausedUntil = .now + min(Self.pauseAfterTimeout, timeout)
    }

    /// Sends what libpq holds for the server, waiting for the socket to take it.
    func flush(until deadline: ContinuousClock.Instant) throws(StorageError) {
        while true {
            let pending = streak_PQflush(handle)
            if pending == 0 { return }
            guard pending == 1 else { throw lost("send") }
            let ready = try wait(for: Int16(POLLIN | POLLOUT), until: deadline)
            // Reading makes room: the server may be blocked writing to us.
            if ready & Int16(POLLIN) != 0, streak_PQconsumeInput(handle) != 1 { throw lost("send") }
        }
    }

    /// The next result of what was sent, waiting for it until `deadline`; nil when there is no
    /// more (libpq's `PQgetResult`, without its endless wait).
    func nextResult(until deadline: ContinuousClock.Instant) throws(StorageError) -> OpaquePointer? {
        while streak_PQisBusy(handle) == 1 {
            _ = try wait(for: Int16(POLLIN), until: deadline)
            // A read that fails broke the connection: PQgetResult then gives its error.
            guard streak_PQconsumeInput(handle) == 1 else { break }
        }
        return streak_PQgetResult(handle)
    }

    /// After a command was handed to libpq (`sent`: its PQsend... result), sends it and reads all
    /// of its results: the first that failed, else the last (as PQexec). The caller clears it.
    private func results(
        of sent: Int32,
        _ operation: String,
        until deadline: ContinuousClock.Instant
    ) throws(StorageError) -> OpaquePointer {
        guard sent == 1 else { throw lost(operation) }
        try flush(until: deadline)
        var kept: OpaquePointer?
        do {
            while let result = try nextResult(until: deadline) {
                if let previous = kept {
                    let status = streak_PQresultStatus(previous)
                    if status != PGRES_COMMAND_OK && status != PGRES_TUPLES_OK {
                        streak_PQclear(result)
                        continue
                    }
                    streak_PQclear(previous)
                }
                kept = result
            }
        } catch {
            streak_PQclear(kept)
            throw error
        }
        guard let kept else { throw lost(operation) }
        return kept
    }

    /// The failure of an operation that found the connection broken.
    func lost(_ operation: String) -> StorageError {
        outcomeUnknown = true
        return StorageError(.io, "PostgreSQL \(operation) failed: the connection is lost: \(connectionMessage)")
    }

    /// Calls `body` with `strings` as a C array of C strings.
    private static func withCStrings<T>(
        _ strings: [String],
        _ body: (UnsafePointer<UnsafePointer<CChar>?>) throws(StorageError) -> T
    ) throws(StorageError) -> T {
        var copies: [UnsafeMutablePointer<CChar>?] = []
        defer { for copy in copies { free(copy) } }
        for string in strings { copies.append(try allocated(strdup(string))) }
        var pointers = copies.map { UnsafePointer($0) } + [nil]
        return try pointers.withUnsafeMutableBufferPointer { buffer throws(StorageError) in
            try body(UnsafePointer(buffer.baseAddress!))
        }
    }

    /// A duration as "10 s" (or "0.5 s").
    static func seconds(_ duration: Duration) -> String {
        let milliseconds = duration.components.seconds * 1000 + duration.components.attoseconds / 1_000_000_000_000_000
        return milliseconds % 1000 == 0 ? "\(milliseconds / 1000) s" : "\(Double(milliseconds) / 1000) s"
    }

    /// UTF-8 text, and the server's notices ("relation already exists, skipping") kept off stderr.
    private func configure() {
        streak_PQsetClientEncoding(handle, "UTF8")
        streak_PQsetNoticeProcessor(handle, { _, _ in }, nil)
    }

    /// The server's name of the prepared statement of `sql`, preparing it first on this session.
    func prepared(_ sql: String, count: Int, until deadline: ContinuousClock.Instant) throws(StorageError) -> String {
        if let name = statements[sql] { return name }
        let name = "s\(statements.count + 1)"
        let sent = streak_PQsendPrepare(handle, name, Self.numberingPlaceholders(sql), Int32(count), nil)
        let result = try results(of: sent, "prepare", until: deadline)
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

    private static func message(of handle: OpaquePointer?) -> String {
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
            sessionEnding = true
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
