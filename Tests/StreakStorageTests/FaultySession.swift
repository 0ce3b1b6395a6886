import Synchronization

@testable import StreakStorage

/// A SQLite connection whose chosen statements fail without running, as if the engine refused
/// them: for the failures a real database will not produce on demand.
final class FaultySession: SQLSession, @unchecked Sendable {
    let inner: SQLiteConnection
    /// For each statement that is to fail: how many more times (nil: always).
    private let faults = Mutex<[(matches: @Sendable (String) -> Bool, remaining: Int?)]>([])
    /// How many times the session was dropped.
    private let drops = Atomic<Int>(0)

    init(_ inner: SQLiteConnection) { self.inner = inner }

    /// Makes the statements that `matches` fail, `times` times (nil: every time).
    func fail(times: Int? = nil, where matches: @escaping @Sendable (String) -> Bool) {
        faults.withLock { $0.append((matches, times)) }
    }

    var droppedSessions: Int { drops.load(ordering: .relaxed) }

    private func check(_ sql: String) throws(StorageError) {
        let refused = faults.withLock { faults -> Bool in
            guard let index = faults.firstIndex(where: { $0.matches(sql) && $0.remaining != 0 }) else { return false }
            if let remaining = faults[index].remaining { faults[index].remaining = remaining - 1 }
            return true
        }
        if refused { throw StorageError(.io, "refused by the test: \(sql)") }
    }

    var dialect: SQLDialect { inner.dialect }

    @discardableResult
    func query(_ sql: String, _ arguments: [SQLValue]) throws(StorageError) -> [[SQLValue]] {
        try check(sql)
        return try inner.query(sql, arguments)
    }

    func forEachRow(
        _ sql: String,
        _ arguments: [SQLValue],
        _ body: (SQLRowView) throws(StorageError) -> Void
    ) throws(StorageError) {
        try check(sql)
        try inner.forEachRow(sql, arguments, body)
    }

    var changes: Int { inner.changes }

    func execute(_ sql: String) throws(StorageError) {
        try check(sql)
        try inner.execute(sql)
    }

    var transactionAborted: Bool { inner.transactionAborted }

    func rollBack() { inner.rollBack() }

    func dropSession() {
        drops.add(1, ordering: .relaxed)
        inner.dropSession()
    }
}
