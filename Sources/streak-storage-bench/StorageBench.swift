import Foundation
import StreakCore
import StreakStorage
import Synchronization

/// Group-commit throughput of `SQLiteStore` alone, without the server: THREADS threads each submit
/// WRITES single-completion writes, waiting for each durable acknowledgement before the next.
///
///     swift run -c release streak-storage-bench [THREADS] [WRITES_PER_THREAD]     (default 50 200)
///
/// The data directory is under $TMPDIR (set TMPDIR to measure another disk). It prints what it
/// measured and never passes or fails on a time.
@main
enum StorageBench {
    static func main() throws {
        let arguments = CommandLine.arguments
        let threads = arguments.count > 1 ? Int(arguments[1])! : 50
        let perThread = arguments.count > 2 ? Int(arguments[2])! : 200
        let directory = NSTemporaryDirectory() + "streakd-bench-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let store = try SQLiteStore(directory: directory)
        let user = try store.createUser(name: "bench").user.id
        let start = try CivilDate(parsing: "1990-01-01")
        let ids = habits(threads, in: store, for: user, on: start)
        let before = store.committedTransactions
        let elapsed = ContinuousClock().measure {
            // Real threads: concurrentPerform would run only as many at once as there are cores.
            let group = DispatchGroup()
            for thread in 0..<threads {
                group.enter()
                Thread {
                    let done = DispatchSemaphore(value: 0)
                    for index in 0..<perThread {
                        let date = try! start.adding(days: index)
                        store.submit(.completions([.record(habitID: ids[thread], date: date)]), for: user) { result in
                            guard case .success(.completions(changed: [true])) = result else { fatalError("\(result)") }
                            done.signal()
                        }
                        done.wait()
                    }
                    group.leave()
                }.start()
            }
            group.wait()
        }
        let commits = store.committedTransactions - before
        store.close()
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        let total = threads * perThread
        print(
            "threads=\(threads) writes/thread=\(perThread) completions=\(total) seconds=\(String(format: "%.2f", seconds))"
        )
        print(
            "commits=\(commits) commits/s=\(Int(Double(commits) / seconds)) completions/s=\(Int(Double(total) / seconds))"
                + " completions/commit=\(String(format: "%.1f", Double(total) / Double(commits)))"
        )
    }

    /// One habit per writer thread, created one after another.
    private static func habits(_ count: Int, in store: SQLiteStore, for user: Int64, on day: CivilDate) -> [Int64] {
        let ids = Mutex<[Int64]>([])
        let created = DispatchSemaphore(value: 0)
        for index in 0..<count {
            store.submit(.createHabit(name: "h\(index)", createdOn: day), for: user) { result in
                if case .success(.habit(let habit)) = result { ids.withLock { $0.append(habit.id) } }
                created.signal()
            }
            created.wait()
        }
        return ids.withLock { $0 }
    }
}
