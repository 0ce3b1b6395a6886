import ArgumentParser
import FoundationEssentials
import Glibc
import StreakStorage

/// Where `streakd` keeps its database and the local user's token.
struct DataDirectoryOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "A PostgreSQL database instead of the embedded SQLite (env STREAKD_DATABASE_URL).",
            discussion: "e.g. postgresql://streakd@127.0.0.1:5432/streakd. Several servers may share it.",
            valueName: "url"
        )
    )
    var databaseURL: String?

    @Option(
        help: ArgumentHelp(
            "Seconds streakd waits for PostgreSQL at most (with --database-url).",
            discussion: """
                To connect, or for the answers to one statement or one flight of statements; a call \
                that waits longer fails with UNAVAILABLE and that connection is opened anew.
                """,
            valueName: "seconds"
        )
    )
    var databaseTimeout: Double = Double(PostgresStore.defaultTimeout.components.seconds)

    @Option(
        help: ArgumentHelp(
            "The data directory (env STREAKD_DATA_DIR).",
            discussion: "Default: $XDG_DATA_HOME/streakd, else $HOME/.local/share/streakd.",
            valueName: "dir"
        )
    )
    var dataDir: String?

    /// The chosen directory's path (nothing is created).
    func path(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        if let dataDir, !dataDir.isEmpty { return dataDir }
        if let value = environment["STREAKD_DATA_DIR"], !value.isEmpty { return value }
        if let xdg = environment["XDG_DATA_HOME"], !xdg.isEmpty { return xdg + "/streakd" }
        let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? Self.passwordHome()
        return home + "/.local/share/streakd"
    }

    /// The chosen directory, created when missing.
    func resolve(environment: [String: String] = ProcessInfo.processInfo.environment) throws -> URL {
        let path = path(environment: environment)
        do {
            try DataDirectory.create(path)
        } catch {
            throw ValidationError(error.message)
        }
        return URL(fileURLWithPath: path, isDirectory: true)
    }

    /// Checks `--database-timeout`: over 0, at most an hour.
    func validate() throws {
        guard databaseTimeout.isFinite, databaseTimeout > 0, databaseTimeout <= 3_600 else {
            throw ValidationError(
                "--database-timeout must be a number of seconds over 0 up to 3600, got \(databaseTimeout)"
            )
        }
    }

    /// `--database-timeout` as a duration.
    var databaseWait: Duration { .milliseconds(Int((databaseTimeout * 1000).rounded(.up))) }

    /// The PostgreSQL database's URL, when one is given (the flag, else STREAKD_DATABASE_URL).
    func postgresURL(environment: [String: String] = ProcessInfo.processInfo.environment) -> String? {
        if let databaseURL, !databaseURL.isEmpty { return databaseURL }
        return environment["STREAKD_DATABASE_URL"].flatMap { $0.isEmpty ? nil : $0 }
    }

    /// Opens the chosen store: PostgreSQL when a database URL is given, else SQLite in `directory`;
    /// with what opening did to its schema.
    /// - Parameter policy: `.upgrade` for the server; administrative commands refuse an older schema.
    func openStore(
        directory: URL,
        policy: MigrationPolicy
    ) throws(StorageError) -> (store: SQLStore, migration: MigrationReport) {
        if let url = postgresURL() {
            let store = try PostgresStore(url: url, timeout: databaseWait, policy: policy)
            return (store, store.migrationReport)
        }
        // The database and its WAL and shared-memory files are created 0600, by every command.
        umask(0o077)
        let store = try SQLiteStore(directory: directory.path, policy: policy)
        return (store, store.migrationReport)
    }

    /// The user's home directory from the password database (`HOME` unset), else "/".
    private static func passwordHome() -> String {
        guard let entry = getpwuid(getuid()), let directory = entry.pointee.pw_dir else { return "/" }
        return String(cString: directory)
    }
}
