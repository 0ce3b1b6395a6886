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
            abstract: "Create a user and print its bearer token (and nothing else) on standard output.",
            discussion: """
                In a data directory without a database it creates a new store (and says so on \
                standard error): users may be added before the server's first start.
                """
        )
        @Argument(help: "The user's name.") var name: String
        @OptionGroup var storage: DataDirectoryOptions
        @OptionGroup var logging: LoggingOptions

        func run() throws {
            logging.bootstrap()
            let token = try UserCommand.withStore(storage, creating: true) { store throws(StorageError) in
                try store.createUser(name: name).token
            }
            print(token)
        }
    }

    /// `streakd user list`: one line per user.
    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List the users: name, creation time, and whether their tokens are revoked.",
            discussion: "A data directory without a database is refused (exit status 1), and left as it is."
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
                """,
            discussion: """
                A user already revoked stays as it is, which is said on standard error (exit status 0). \
                An unknown user, or a data directory without a database, is refused (exit status 1).
                """
        )
        @Argument(help: "The user's name.") var name: String
        @OptionGroup var storage: DataDirectoryOptions
        @OptionGroup var logging: LoggingOptions

        func run() throws {
            logging.bootstrap()
            let revoked = try UserCommand.withStore(storage) { store throws(StorageError) in
                try store.revokeUser(name: name)
            }
            if !revoked { StandardStreams.writeError("streakd: \(name) was already revoked; nothing changed\n") }
        }
    }

    /// Opens the store (the data directory's, or the PostgreSQL database given), runs `body`, closes
    /// it; storage errors exit with status 1, after `reporting` says what went wrong (by default
    /// the error's message with the database's own words, for the person at the terminal).
    /// A store whose schema is older than this streakd's is refused, and left as it is.
    /// - Parameter creating: a data directory without a database gets a new store, which is said on
    ///   standard error (`user add`, `user import`); without it such a directory is refused with
    ///   status 1 and left as it is (a mistyped --data-dir must not become a new, empty store).
    static func withStore<T>(
        _ options: DataDirectoryOptions,
        creating: Bool = false,
        reporting: (StorageError) -> String = { $0.messageWithEngineText },
        _ body: (SQLStore) throws(StorageError) -> T
    ) throws -> T {
        let newDatabase = try missingDatabase(options, creating: creating)
        let directory = try options.resolve()
        do {
            // Never moves an existing store's schema forward: servers of the older version may be
            // serving it, and could not restart on a newer schema. Only a server upgrades.
            let store = try options.openStore(directory: directory, policy: .refuseUpgrade).store
            defer { store.close() }
            if let newDatabase {
                StandardStreams.writeError(
                    "streakd: created a new store at \(newDatabase): there was no database in this data "
                        + "directory (if you expected one, check --data-dir or STREAKD_DATA_DIR)\n"
                )
            }
            return try body(store)
        } catch {
            StandardStreams.writeError("streakd: \(reporting(error))\n")
            throw ExitCode.failure
        }
    }

    /// The path of the SQLite database when there is none yet and `creating` allows a new one; nil
    /// when it exists or the store is PostgreSQL. Without `creating`, a missing one exits with status 1.
    private static func missingDatabase(_ options: DataDirectoryOptions, creating: Bool) throws -> String? {
        guard options.postgresURL() == nil else { return nil }
        let database = PathText.joining(options.path(), SQLiteStore.fileName)
        guard !FileManager.default.fileExists(atPath: database) else { return nil }
        guard creating else {
            StandardStreams.writeError(
                "streakd: there is no database at \(database) (is --data-dir or STREAKD_DATA_DIR right?); "
                    + "'streakd user add' or the server's first start creates one\n"
            )
            throw ExitCode.failure
        }
        return database
    }
}
