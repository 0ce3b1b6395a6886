import ArgumentParser
import FoundationEssentials
import Logging
import StreakWire

/// `streakd`: the Streakd server. Without a subcommand it serves; `streakd user ...` administers
/// users, `streakd backup` copies the SQLite store.
@main
struct Streakd: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "streakd",
        abstract: "The Streakd habit heatmap and streak server.",
        discussion: """
            Serves the Streakd protocol (docs/PROTOCOL.md) on HOST:PORT and prints \
            "streakd listening on HOST:PORT" once it accepts connections. Logs go to standard error. \
            SIGTERM or SIGINT shut it down gracefully (stop accepting, GOAWAY, finish in-flight \
            requests, close the database) with exit status 0.

            With --tls-cert and --tls-key it serves TLS 1.2+ only (docs/PROTOCOL.md section 8), and \
            SIGHUP reads both files again: new connections use them, open ones are kept, and a pair \
            that does not load is logged while the old one keeps serving; without TLS SIGHUP is \
            logged and ignored. Without TLS it binds only \
            loopback addresses unless --insecure-plaintext: bearer tokens would travel in clear (with \
            it, a warning is logged at start).

            Environment: STREAKD_HOST, STREAKD_PORT, STREAKD_DATA_DIR, STREAKD_DATABASE_URL, \
            STREAKD_TLS_CERT, STREAKD_TLS_KEY, STREAKD_USER_MEMORY_BUDGET (flags take precedence). With a database URL the data is in PostgreSQL, which several servers may \
            share; the data directory then only holds the local user's token.
            The first start on a store without users creates the user "local" and writes its \
            token to <data dir>/token (mode 0600). A <data dir>/streakd.sqlite3 that is not a \
            streakd database (not a database at all, or another program's) is refused and left as it is.
            """,
        version: StreakdRelease.version,
        subcommands: [UserCommand.self, BackupCommand.self]
    )

    @OptionGroup var server: ServerOptions
    @OptionGroup var storage: DataDirectoryOptions
    @OptionGroup var memory: MemoryOptions
    @OptionGroup var logging: LoggingOptions

    func run() throws {
        logging.bootstrap()
        let configuration = try server.transportConfiguration()
        let directory = try storage.resolve()
        let runner = ServerRunner(
            configuration: configuration,
            dataDirectory: directory,
            storage: storage,
            userMemoryBudget: try memory.budget(),
            logger: Logger(label: "streakd")
        )
        try runner.run()
    }
}
