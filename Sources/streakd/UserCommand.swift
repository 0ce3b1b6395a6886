import ArgumentParser
import FoundationEssentials
import Logging
import StreakPOSIX
import StreakStorage

/// `streakd user add|import|list|revoke`: administers the users of a data directory.
struct UserCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "user",
        abstract: "Add, import, list and revoke users.",
        subcommands: [Add.self, Import.self, List.self, Revoke.self]
    )

    /// `streakd user add NAME`: prints only the new user's token.
    struct Add: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Create a user and print its bearer token (and nothing else) on standard output."
        )
        @Argument(help: "The user's name.") var name: String
        @OptionGroup var storage: DataDirectoryOptions
        @OptionGroup var logging: LoggingOptions

        func run() throws {
            logging.bootstrap()
            let token = try UserCommand.withStore(storage) { store throws(StorageError) in
                try store.createUser(name: name).token
            }
            print(token)
        }
    }

    /// `streakd user list`: one line per user.
    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List the users: name, creation time, and whether their tokens are revoked."
        )
        @OptionGroup var storage: DataDirectoryOptions
        @OptionGroup var logging: LoggingOptions

        func run() throws {
            logging.bootstrap()
            let users = try UserCommand.withStore(storage) { store throws(StorageError) in try store.users() }
            for user in users {
                print("\(user.name)\t\(user.createdAt.formatted(.iso8601))\t\(user.revoked ? "revoked" : "active")")
            }
        }
    }

    /// `streakd user revoke NAME`: the user's tokens stop working.
    struct Revoke: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: """
                Revoke a user's tokens; a running server refuses them, and ends the Watch streams \
                opened with them, within a few seconds.
                """
        )
        @Argument(help: "The user's name.") var name: String
        @OptionGroup var storage: DataDirectoryOptions
        @OptionGroup var logging: LoggingOptions

        func run() throws {
            logging.bootstrap()
            try UserCommand.withStore(storage) { store throws(StorageError) in try store.revokeUser(name: name) }
        }
    }

    /// Opens the store (the data directory's, or the PostgreSQL database given), runs `body`, closes
    /// it; storage errors exit with status 1, after `reporting` says what went wrong (by default
    /// the error's message).
    static func withStore<T>(
        _ options: DataDirectoryOptions,
        reporting: (StorageError) -> String = { $0.message },
        _ body: (SQLStore) throws(StorageError) -> T
    ) throws -> T {
        let directory = try options.resolve()
        do {
            let store = try options.openStore(directory: directory)
            defer { store.close() }
            return try body(store)
        } catch {
            StandardStreams.writeError("streakd: \(reporting(error))\n")
            throw ExitCode.failure
        }
    }
}
