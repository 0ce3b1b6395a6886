import Foundation
import StreakCore

@testable import StreakStorage

/// A fresh store in a temporary directory, removed at deinit.
final class StoreFixture: @unchecked Sendable {
    let directory: String
    let store: SQLiteStore

    init(checkpointThreshold: Int32? = nil) throws {
        directory = NSTemporaryDirectory() + "streakd-storage-\(UUID().uuidString)"
        if let checkpointThreshold {
            store = try SQLiteStore(directory: directory, checkpointThreshold: checkpointThreshold)
        } else {
            store = try SQLiteStore(directory: directory)
        }
    }

    deinit {
        store.close()
        try? FileManager.default.removeItem(atPath: directory)
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

    func wait() -> Result<StoreWriteResult, StorageError> {
        condition.withLock {
            while result == nil { condition.wait() }
            return result!
        }
    }
}

func day(_ text: String) -> CivilDate { try! CivilDate(parsing: text) }
