import ArgumentParser
import Dispatch
import Foundation
import StreakCore
import StreakStorage

extension StreakLoad {
    /// Writes the benchmark's users straight into a store, without a server: the users as
    /// `streakd user import` creates them, the data as `populate` imports it.
    struct Generate: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Create users with five habits and a year of completions each, straight into a store.",
            discussion: """
                The users are PREFIX1...PREFIXN, their tokens are written to --tokens-file one a line, and \
                each gets the data `populate` would import for its line (same habits, same days). No server \
                may serve the store meanwhile.
                """
        )

        @Option(help: "How many users.")
        var users: Int

        @Option(help: "The SQLite store's data directory (as streakd's --data-dir).")
        var dataDir: String?

        @Option(help: "A PostgreSQL database instead of SQLite.")
        var databaseURL: String?

        @Option(help: "Where the tokens go, one a line, in the users' order (must not exist).")
        var tokensFile: String

        @Option(help: "The user names' prefix.")
        var prefix = "scale"

        @Option(help: "Users per transaction.")
        var chunk = 1000

        func validate() throws {
            guard users > 0, chunk > 0 else { throw ValidationError("--users and --chunk must be positive") }
            guard (dataDir == nil) != (databaseURL == nil) else {
                throw ValidationError("give exactly one of --data-dir and --database-url")
            }
        }

        func run() throws {
            let started = Date()
            guard
                FileManager.default.createFile(
                    atPath: tokensFile,
                    contents: nil,
                    attributes: [.posixPermissions: 0o600]
                ),
                let output = FileHandle(forWritingAtPath: tokensFile)
            else { throw ValidationError("cannot create \(tokensFile)") }
            defer { try? output.close() }
            let store: SQLStore
            if let databaseURL {
                store = try PostgresStore(url: databaseURL)
            } else {
                umask(0o077)
                store = try SQLiteStore(directory: dataDir ?? ".")
            }
            defer { store.close() }
            let created = try store.createUsers(names: (1...users).map { "\(prefix)\($0)" })
            try output.write(contentsOf: Data(created.map { $0.token + "\n" }.joined().utf8))
            let usersDone = Date()
            // The next chunk's data is made on another thread while this one's is inserted.
            let ids = created.map(\.user.id)
            let chunk = self.chunk
            @Sendable func batch(_ start: Int) -> [(user: UserID, habits: [PopulatedHabit])] {
                (start..<min(start + chunk, ids.count)).map { index in
                    (user: ids[index], habits: Self.habits(seed: BenchUser.seed(index: index)))
                }
            }
            var next = batch(0)
            for start in stride(from: 0, to: ids.count, by: chunk) {
                let current = next
                let following = start + chunk
                let made = DispatchSemaphore(value: 0)
                let box = BatchBox()
                if following < ids.count {
                    DispatchQueue.global().async {
                        box.value = batch(following)
                        made.signal()
                    }
                } else {
                    made.signal()
                }
                try store.populate(current)
                made.wait()
                next = box.value
            }
            print(
                "generated \(users) users with \(BenchUser.habitCount) habits and a year each"
                    + String(
                        format: " (users %.1f s, data %.1f s)",
                        usersDone.timeIntervalSince(started),
                        Date().timeIntervalSince(usersDone)
                    )
            )
        }

        /// One user's habits: the same as `BenchUser.importRequest(seed:)`.
        static func habits(seed: UInt64) -> [PopulatedHabit] {
            BenchUser.yearOfDays(seed: seed).enumerated().map { index, days in
                PopulatedHabit(name: BenchUser.habitName(index), createdOn: BenchUser.createdOn, completions: days)
            }
        }
    }
}

/// Hands one chunk's data from the thread that made it to the one that inserts it (a semaphore
/// orders the accesses).
private final class BatchBox: @unchecked Sendable {
    var value: [(user: UserID, habits: [PopulatedHabit])] = []
}
