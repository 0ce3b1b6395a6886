internal import CSQLite
import FoundationEssentials
import StreakPOSIX

#if canImport(Glibc)
import Glibc
#endif

/// Consistent copies of a SQLite store that a server may be writing, through SQLite's online
/// backup API, and the check of a copy.
///
/// The copy reads through a connection of its own (it only reads), inside one read transaction: in WAL mode a
/// reader sees the database as it was when its transaction began and never blocks the writer,
/// so the copy holds every transaction committed before it began and nothing of later ones,
/// while the server goes on committing. (Without the held transaction, SQLite would start the
/// copy over whenever another process wrote between two steps, and under a steady load it might
/// never finish.) The pages go to a temporary file beside the destination, which is synced and
/// then renamed into place: the destination is the whole copy or is not there at all.
public enum SQLiteBackup {
    /// What a copy copied.
    public struct Copy: Sendable, Hashable {
        /// Database pages copied.
        public var pages: Int
        /// Bytes per page.
        public var pageSize: Int
        /// The copy's size in bytes.
        public var bytes: Int { pages * pageSize }
        /// The schema version of the copied database.
        public var schemaVersion: Int
        /// Steps of the backup API.
        public var steps: Int
        /// Times a step found the database busy or locked and waited.
        public var busyWaits: Int
        /// From opening the source to the copy's rename, in seconds.
        public var seconds: Double
    }

    /// What `check` found.
    public struct Check: Sendable, Hashable {
        /// The problems `PRAGMA integrity_check` reported, one line each (at most 100: the check
        /// stops there); empty when it said "ok".
        public var problems: [String]
        /// The schema version (the number of migrations applied), nil for a database that is not
        /// a streakd store.
        public var schemaVersion: Int?
        /// Rows in `users`, `habits` and `completions` (0 when the table is missing or the check failed).
        public var users: Int
        public var habits: Int
        public var completions: Int
        /// Whether the integrity check passed.
        public var passed: Bool { problems.isEmpty }
    }

    /// Pages per step by default (4 MiB at SQLite's default 4 KiB page).
    public static let defaultPagesPerStep: Int32 = 1024
    /// How long a step may keep finding the database busy before the copy gives up.
    static let busyLimit: Duration = .seconds(60)

    /// Copies the database at `source` to `destination` (mode 0600), consistently, while other
    /// processes may write it.
    /// - Parameters:
    ///   - replacing: replace an existing `destination`; without it an existing one is refused,
    ///     and never touched.
    ///   - pagesPerStep: pages copied by each step of the backup API.
    ///   - pause: a wait between steps (tests take small, slow steps, so that writers commit
    ///     between them).
    /// - Throws: `.notFound` when `source` does not exist, `.alreadyExists` when `destination`
    ///   does (and `replacing` is false), `.invalidArgument` when `destination` is the database
    ///   itself, one of its files or a directory, `.io` or `.corrupt` when reading or writing fails.
    ///   Nothing is left behind after a failure.
    public static func copy(
        database source: String,
        to destination: String,
        replacing: Bool,
        pagesPerStep: Int32 = defaultPagesPerStep,
        pause: Duration = .zero
    ) throws(StorageError) -> Copy {
        let started = ContinuousClock.now
        guard FileManager.default.fileExists(atPath: source) else {
            throw StorageError(.notFound, "there is no database at \(source)")
        }
        try checkDestination(destination, source: source, replacing: replacing)
        let temporary = try temporaryFile(beside: destination)
        do throws(StorageError) {
            var copy = try copyPages(from: source, to: temporary, pagesPerStep: max(pagesPerStep, 1), pause: pause)
            try syncFile(temporary)
            try moveIntoPlace(temporary, destination, replacing: replacing)
            try syncDirectory(of: destination)
            copy.seconds = (ContinuousClock.now - started) / .seconds(1)
            return copy
        } catch {
            unlink(temporary)
            unlink(temporary + "-journal")
            throw error
        }
    }

    /// Runs `PRAGMA integrity_check` on the database at `path` (it only reads) and, when it
    /// passes, counts its users, habits and completions.
    /// - Throws: `.notFound` when there is no such file, `.corrupt` when it is not a SQLite
    ///   database, `.io` when it cannot be read.
    public static func check(_ path: String) throws(StorageError) -> Check {
        guard FileManager.default.fileExists(atPath: path) else {
            throw StorageError(.notFound, "there is no database at \(path)")
        }
        let database = try Handle(path: path)
        defer { database.close() }
        var check = Check(problems: [], schemaVersion: nil, users: 0, habits: 0, completions: 0)
        do throws(StorageError) {
            let rows = try database.texts("PRAGMA integrity_check")
            check.problems = rows == ["ok"] ? [] : problems(in: rows)
        } catch  where error.code == .corrupt {
            // Damaged past what the check itself can walk.
            check.problems = [error.message]
        }
        // The counts would read the damage again: a failed check is the whole answer.
        guard check.passed else { return check }
        let tables = Set(try database.texts("SELECT name FROM sqlite_master WHERE type = 'table'"))
        if tables.contains("schema_migrations") {
            check.schemaVersion = try database.integer("SELECT COALESCE(MAX(version), 0) FROM schema_migrations")
        }
        if tables.contains("users") { check.users = try database.integer("SELECT COUNT(*) FROM users") }
        if tables.contains("habits") { check.habits = try database.integer("SELECT COUNT(*) FROM habits") }
        if tables.contains("completions") {
            check.completions = try database.integer("SELECT COUNT(*) FROM completions")
        }
        return check
    }

    /// The problems in the rows of `PRAGMA integrity_check`, one per line: SQLite reports every
    /// problem of a database's b-trees in a single row, one per line, under a
    /// `*** in database main ***` line (dropped here), and each index problem in a row of its own.
    static func problems(in rows: [String]) -> [String] {
        rows.flatMap { $0.split(separator: "\n") }
            .filter { !($0.hasPrefix("*** in database ") && $0.hasSuffix(" ***")) }
            .map(String.init)
    }

    /// The backup API's loop, from a read transaction held on `source` to the empty `target`.
    private static func copyPages(
        from source: String,
        to target: String,
        pagesPerStep: Int32,
        pause: Duration
    ) throws(StorageError) -> Copy {
        let reader = try Handle(path: source)
        defer { reader.close() }
        // The read transaction: the copy is the database as of this moment, however many steps it takes.
        try reader.execute("BEGIN")
        let migrations = "SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'schema_migrations'"
        guard try !reader.texts(migrations).isEmpty else {
            throw StorageError(
                .invalidArgument,
                "\(source) is not a streakd database (it has no schema_migrations table)"
            )
        }
        let schemaVersion = try reader.integer("SELECT COALESCE(MAX(version), 0) FROM schema_migrations")
        let writer = try Handle(path: target)
        defer { writer.close() }
        // Nothing to roll back into: a failed copy is deleted, and the file is synced once, at the end.
        try writer.execute("PRAGMA journal_mode = OFF")
        try writer.execute("PRAGMA synchronous = OFF")
        guard let backup = sqlite3_backup_init(writer.handle, "main", reader.handle, "main") else {
            throw writer.error("backup")
        }
        let (result, steps, busyWaits) = step(backup, pagesPerStep: pagesPerStep, pause: pause)
        let pages = Int(sqlite3_backup_pagecount(backup))
        let finished = sqlite3_backup_finish(backup)
        guard result == SQLITE_DONE, finished == SQLITE_OK else {
            let code = result == SQLITE_DONE ? finished : result
            throw StorageError(
                (code & 0xFF) == SQLITE_CORRUPT || (code & 0xFF) == SQLITE_NOTADB ? .corrupt : .io,
                "the backup of \(source) failed (\(code)): \(String(cString: sqlite3_errstr(code)))"
            )
        }
        try reader.execute("COMMIT")
        let pageSize = try writer.integer("PRAGMA page_size")
        try writer.closeChecked()
        return Copy(
            pages: pages,
            pageSize: pageSize,
            schemaVersion: schemaVersion,
            steps: steps,
            busyWaits: busyWaits,
            seconds: 0
        )
    }

    /// Runs the backup's steps of `pagesPerStep` pages, `pause` apart, until it is done or fails.
    /// A step the source's lock refuses (BUSY, LOCKED) is tried again every 20 ms for up to
    /// `busyLimit`. Returns the last step's result, the steps taken and the waits for the lock.
    private static func step(
        _ backup: OpaquePointer,
        pagesPerStep: Int32,
        pause: Duration
    ) -> (result: Int32, steps: Int, busyWaits: Int) {
        var steps = 0
        var busyWaits = 0
        var busySince: ContinuousClock.Instant?
        var result: Int32
        repeat {
            result = sqlite3_backup_step(backup, pagesPerStep)
            steps += 1
            if result == SQLITE_BUSY || result == SQLITE_LOCKED {
                let now = ContinuousClock.now
                if now - (busySince ?? now) > busyLimit { break }
                busySince = busySince ?? now
                busyWaits += 1
                sqlite3_sleep(20)
            } else {
                busySince = nil
                if result == SQLITE_OK && pause > .zero { sqlite3_sleep(Int32(min(pause / .milliseconds(1), 60_000))) }
            }
        } while result == SQLITE_OK || result == SQLITE_BUSY || result == SQLITE_LOCKED
        return (result, steps, busyWaits)
    }

    /// Refuses a destination that exists (unless replacing), is a directory, or is the database
    /// or one of its companion files.
    private static func checkDestination(
        _ destination: String,
        source: String,
        replacing: Bool
    ) throws(StorageError) {
        var isDirectory = false
        let exists = FileManager.default.fileExists(atPath: destination, isDirectory: &isDirectory)
        if exists && isDirectory {
            throw StorageError(.invalidArgument, "\(destination) is a directory; name the backup file")
        }
        let database = canonical(source)
        let target = canonical(destination)
        var sourceStatus = stat()
        var targetStatus = stat()
        let sameFile =
            stat(source, &sourceStatus) == 0 && stat(destination, &targetStatus) == 0
            && sourceStatus.st_dev == targetStatus.st_dev && sourceStatus.st_ino == targetStatus.st_ino
        if sameFile || ["", "-wal", "-shm", "-journal"].contains(where: { database + $0 == target }) {
            throw StorageError(.invalidArgument, "\(destination) is the database itself or one of its files")
        }
        if exists && !replacing {
            throw StorageError(.alreadyExists, "\(destination) already exists")
        }
    }

    /// `path` with its directory resolved (symbolic links, `..`), the file name kept.
    private static func canonical(_ path: String) -> String {
        let url = URL(fileURLWithPath: path)
        let directory = url.deletingLastPathComponent().resolvingSymlinksInPath().path
        return PathText.joining(directory, url.lastPathComponent)
    }

    /// A new empty file, mode 0600, in the directory of `destination`.
    private static func temporaryFile(beside destination: String) throws(StorageError) -> String {
        let url = URL(fileURLWithPath: destination)
        let directory = url.deletingLastPathComponent().path
        var template = Array(
            PathText.joining(directory, ".\(url.lastPathComponent).XXXXXX").utf8CString
        )
        let descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard descriptor >= 0 else {
            throw StorageError(.io, "cannot create a file in \(directory): \(String(cString: strerror(errno)))")
        }
        fchmod(descriptor, 0o600)
        close(descriptor)
        return template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
    }

    private static func syncFile(_ path: String) throws(StorageError) {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw ioError("cannot open", path) }
        defer { close(descriptor) }
        guard fsync(descriptor) == 0 else { throw ioError("cannot sync", path) }
    }

    private static func syncDirectory(of path: String) throws(StorageError) {
        let directory = URL(fileURLWithPath: path).deletingLastPathComponent().path
        let descriptor = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { throw ioError("cannot open", directory) }
        defer { close(descriptor) }
        guard fsync(descriptor) == 0 else { throw ioError("cannot sync", directory) }
    }

    /// Renames the finished copy to `destination`. Without `replacing`, a hard link makes the name
    /// only if it is free (no window in which another file could be replaced).
    private static func moveIntoPlace(
        _ temporary: String,
        _ destination: String,
        replacing: Bool
    ) throws(StorageError) {
        if !replacing {
            if link(temporary, destination) == 0 {
                unlink(temporary)
                return
            }
            if errno == EEXIST { throw StorageError(.alreadyExists, "\(destination) already exists") }
            // A file system without hard links: check, then rename.
            guard errno == EPERM || errno == EOPNOTSUPP || errno == ENOTSUP else {
                throw ioError("cannot create", destination)
            }
            if FileManager.default.fileExists(atPath: destination) {
                throw StorageError(.alreadyExists, "\(destination) already exists")
            }
        }
        guard rename(temporary, destination) == 0 else { throw ioError("cannot rename the copy to", destination) }
    }

    private static func ioError(_ what: String, _ path: String) -> StorageError {
        StorageError(.io, "\(what) \(path): \(String(cString: strerror(errno)))")
    }

    /// A bare SQLite connection to an existing file (the store's connections create the database
    /// and set its journal mode; these must not).
    ///
    /// Opened for reading and writing although the source and the checked file are only read: a
    /// read-only connection to a WAL database leaves its -wal and -shm files behind when it is the
    /// last to close, where any other connection removes them (and a read-only one cannot recover
    /// the log of a server that crashed). A file the system will not let us write still opens,
    /// read-only.
    private final class Handle {
        private(set) var handle: OpaquePointer?
        private let path: String

        init(path: String) throws(StorageError) {
            self.path = path
            guard sqlite3_open_v2(path, &handle, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX, nil) == SQLITE_OK else {
                let message = handle.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
                sqlite3_close(handle)
                handle = nil
                throw StorageError(.io, "cannot open the database at \(path): \(message)")
            }
            sqlite3_busy_timeout(handle, 5000)
        }

        deinit { close() }

        func close() {
            sqlite3_close(handle)
            handle = nil
        }

        /// Closes, failing when SQLite could not (the last writes of the copy are flushed here).
        func closeChecked() throws(StorageError) {
            let result = sqlite3_close(handle)
            guard result == SQLITE_OK else { throw error("close") }
            handle = nil
        }

        func execute(_ sql: String) throws(StorageError) {
            guard sqlite3_exec(handle, sql, nil, nil, nil) == SQLITE_OK else { throw error("execute") }
        }

        /// The first column of every row, as text.
        func texts(_ sql: String) throws(StorageError) -> [String] {
            var statement: OpaquePointer?
            guard sqlite3_prepare_v2(handle, sql, -1, &statement, nil) == SQLITE_OK else { throw error("prepare") }
            defer { sqlite3_finalize(statement) }
            var rows: [String] = []
            while true {
                let step = sqlite3_step(statement)
                if step == SQLITE_DONE { return rows }
                guard step == SQLITE_ROW else { throw error("step") }
                rows.append(sqlite3_column_text(statement, 0).map { String(cString: $0) } ?? "")
            }
        }

        func integer(_ sql: String) throws(StorageError) -> Int {
            guard let text = try texts(sql).first, let value = Int(text) else {
                throw StorageError(.corrupt, "\(sql) gave no number")
            }
            return value
        }

        func error(_ operation: String) -> StorageError {
            let code = handle.map { sqlite3_extended_errcode($0) } ?? SQLITE_MISUSE
            let message = handle.map { String(cString: sqlite3_errmsg($0)) } ?? "not open"
            let kind: StorageError.Code =
                (code & 0xFF) == SQLITE_CORRUPT || (code & 0xFF) == SQLITE_NOTADB ? .corrupt : .io
            return StorageError(kind, "SQLite \(operation) failed on \(path) (\(code)): \(message)")
        }
    }
}
