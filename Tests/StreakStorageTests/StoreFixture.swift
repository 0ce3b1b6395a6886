import Foundation
import StreakCore
import StreakTestSupport
import Testing

@testable import StreakStorage

/// The engines the store tests run on: SQLite always, PostgreSQL when a server is configured.
enum Engine: String, Sendable, CustomTestStringConvertible {
    case sqlite
    case postgres

    /// SQLite, and PostgreSQL when `STREAKD_TEST_POSTGRES_URL` names a server (or when the run
    /// requires it: then a missing server fails the PostgreSQL cases).
    static var available: [Engine] {
        PostgresTestDatabase.serverURL == nil && !PostgresTestDatabase.required ? [.sqlite] : [.sqlite, .postgres]
    }

    var testDescription: String { rawValue }
}

/// A fresh store: SQLite in a temporary directory, or PostgreSQL in a new database; removed at deinit.
final class StoreFixture: @unchecked Sendable {
    let engine: Engine
    let directory: String
    private let database: PostgresTestDatabase?
    let store: SQLStore

    /// - Parameter checkpoint: how the SQLite store's checkpoints run (with `checkpointThreshold`).
    init(
        _ engine: Engine = .sqlite,
        checkpointThreshold: Int32? = nil,
        checkpoint: @escaping @Sendable (SQLiteConnection.Handle) -> SQLiteConnection.CheckpointOutcome =
            SQLiteConnection.checkpointPassive
    ) throws {
        self.engine = engine
        directory = NSTemporaryDirectory() + "streakd-storage-\(UUID().uuidString)"
        switch engine {
        case .sqlite:
            database = nil
            if let checkpointThreshold {
                store = try SQLiteStore(
                    directory: directory,
                    checkpointThreshold: checkpointThreshold,
                    checkpoint: checkpoint
                )
            } else {
                store = try SQLiteStore(directory: directory)
            }
        case .postgres:
            let database = try PostgresTestDatabase()
            self.database = database
            store = try PostgresStore(url: database.url)
        }
    }

    deinit {
        store.close()
        try? FileManager.default.removeItem(atPath: directory)
    }

    /// The PostgreSQL database's URL (nil on SQLite).
    var databaseURL: String? { database?.url }

    /// The SQLite store's write-ahead log file.
    var logPath: String { directory + "/streakd.sqlite3-wal" }

    /// The SQLite store (tests of SQLite's files and checkpoints).
    var sqlite: SQLiteStore { store as! SQLiteStore }

    /// A second store on the same data, as after a restart; the caller closes it.
    func reopen() throws -> SQLStore {
        switch engine {
        case .sqlite: try SQLiteStore(directory: directory)
        case .postgres: try PostgresStore(url: database!.url)
        }
    }

    /// Submits a write and waits for its durable result.
    func write(_ write: StoreWrite, for user: UserID) -> Result<StoreWriteResult, StorageError> {
        submit(write, for: user).wait()
    }

    /// Submits a write without waiting: its result arrives in the box.
    func submit(_ write: StoreWrite, for user: UserID) -> ResultBox {
        let box = ResultBox()
        store.submit(write, for: user) { box.set($0) }
        return box
    }

    func habit(_ name: String, for user: UserID, from date: String = "2024-01-01") throws -> Habit {
        let result = write(.createHabit(name: name, createdOn: try CivilDate(parsing: date)), for: user)
        guard case .habit(let habit) = try result.get()
        else { throw StorageError(.corrupt, "not a habit") }
        return habit
    }
}

/// Carries one result across threads.
final class ResultBox: @unchecked Sendable {
    private let condition = NSCondition()
    private var result: Result<StoreWriteResult, StorageError>?

    func set(_ value: Result<StoreWriteResult, StorageError>) {
        condition.withLock {
            result = value
            condition.broadcast()
        }
    }

    /// The result, or nil when none came within `seconds`.
    func wait(seconds: Double) -> Result<StoreWriteResult, StorageError>? {
        condition.withLock {
            let deadline = Date().addingTimeInterval(seconds)
            while result == nil && condition.wait(until: deadline) {}
            return result
        }
    }

    func wait() -> Result<StoreWriteResult, StorageError> {
        condition.withLock {
            while result == nil { condition.wait() }
            return result!
        }
    }
}

func day(_ text: String) -> CivilDate { try! CivilDate(parsing: text) }
