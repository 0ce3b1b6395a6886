import ArgumentParser
import FoundationEssentials
import Logging
import StreakPOSIX
import StreakStorage

/// `streakd backup DEST`: a consistent copy of the SQLite store, taken while a server may be
/// serving it; `streakd backup --check FILE`: the integrity check of a copy.
struct BackupCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "backup",
        abstract: "Copy the SQLite store to DEST, consistently, even while streakd serves it.",
        discussion: """
            The copy is the database as it was when the backup began: every write acknowledged \
            before then, nothing half-done. It reads through a connection of its own (SQLite's \
            online backup API) and never stops the server, which goes on writing meanwhile. DEST \
            is written to a temporary file beside it, synced and renamed, so it is the whole copy \
            or absent; its mode is 0600. An existing DEST is refused unless --force.

            To restore: stop streakd, move the copy to <data dir>/streakd.sqlite3, delete \
            streakd.sqlite3-wal and streakd.sqlite3-shm if they are there, and start streakd.

            --check FILE runs SQLite's integrity check on a copy (or any store) and counts its \
            users, habits and completions; when the check fails it lists each problem on a line \
            of its own, as many as it counts (SQLite's check stops at 100), and exits 1.

            PostgreSQL (--database-url) is not copied here: use pg_dump.
            """
    )

    @Argument(help: ArgumentHelp("The backup file to write.", valueName: "dest"))
    var destination: String?

    @Flag(help: "Replace DEST when it exists.")
    var force = false

    @Option(help: ArgumentHelp("Check FILE with PRAGMA integrity_check instead of copying.", valueName: "file"))
    var check: String?

    /// Pages per step of SQLite's backup API, and a pause between steps in milliseconds: tests take
    /// small, slow steps so that the server commits between them.
    @Option(help: .hidden)
    var pagesPerStep: Int32 = SQLiteBackup.defaultPagesPerStep
    @Option(help: .hidden)
    var stepPauseMs: Int = 0

    @OptionGroup var storage: DataDirectoryOptions
    @OptionGroup var logging: LoggingOptions

    func validate() throws {
        if check != nil && destination != nil { throw ValidationError("give DEST or --check FILE, not both") }
        if check == nil && destination == nil { throw ValidationError("missing the backup file, DEST") }
    }

    func run() throws {
        logging.bootstrap()
        if let check {
            try Self.check(check)
            return
        }
        guard let destination else { return }
        if storage.postgresURL() != nil {
            Self.fail(
                """
                the data is in PostgreSQL (--database-url or STREAKD_DATABASE_URL), which streakd backup \
                does not copy: back it up with PostgreSQL's own tools, e.g. \
                pg_dump --format=custom --file=streakd.dump URL, and restore with pg_restore
                """
            )
        }
        let source = PathText.joining(storage.path(), SQLiteStore.fileName)
        let copy: SQLiteBackup.Copy
        do {
            copy = try SQLiteBackup.copy(
                database: source,
                to: destination,
                replacing: force,
                pagesPerStep: pagesPerStep,
                pause: .milliseconds(stepPauseMs)
            )
        } catch {
            switch error.code {
            case .alreadyExists: Self.fail("\(error.message); pass --force to replace it")
            case .notFound: Self.fail("\(error.message) (is --data-dir or STREAKD_DATA_DIR right?)")
            default: Self.fail(error.messageWithEngineText)
            }
        }
        print(
            "backed up \(source) to \(destination): \(copy.pages) pages of \(copy.pageSize) bytes "
                + "(\(Self.size(copy.bytes))), schema version \(copy.schemaVersion), "
                + "in \(decimalText(copy.seconds, places: 3)) s (\(copy.steps) \(copy.steps == 1 ? "step" : "steps"))"
        )
    }

    /// Prints the check of `path`; exits 1 when it fails or `path` is not a streakd store.
    static func check(_ path: String) throws {
        let result: SQLiteBackup.Check
        do {
            result = try SQLiteBackup.check(path)
        } catch {
            fail(error.messageWithEngineText)
        }
        guard result.passed else {
            let limit = result.problems.count >= 100 ? " (it stops at 100)" : ""
            print("\(path): PRAGMA integrity_check found \(result.problems.count) problem(s)\(limit):")
            for problem in result.problems { print("  \(problem)") }
            throw ExitCode.failure
        }
        guard let version = result.schemaVersion else {
            print("\(path): PRAGMA integrity_check ok, but it is not a streakd database (no schema_migrations table)")
            throw ExitCode.failure
        }
        print(
            "\(path): PRAGMA integrity_check ok; schema version \(version); "
                + "\(result.users) users, \(result.habits) habits, \(result.completions) completions"
        )
    }

    /// Says why on standard error and exits with status 1.
    static func fail(_ message: String) -> Never {
        StandardStreams.writeError("streakd: \(message)\n")
        Self.exit(withError: ExitCode.failure)
    }

    /// `bytes` in KiB, MiB or GiB with one decimal.
    static func size(_ bytes: Int) -> String {
        let (value, unit) = binaryUnit(UInt64(max(0, bytes)))
        return unit.map { decimalText(value, places: 1) + " " + $0 } ?? "\(bytes) bytes"
    }
}
