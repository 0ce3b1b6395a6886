import FoundationEssentials

#if canImport(Glibc)
import Glibc
#endif

/// The exclusive lock that keeps a second `streakd` off a data directory it already serves.
///
/// Two servers on one directory would each keep their own in-memory copy of every user and
/// answer from stale data. `streakd user ...` does not take the lock: it only adds, imports, lists
/// and revokes users through SQLite, which the running server reads on a token-cache miss; nor
/// does `streakd backup`, which only reads, through a read transaction that never blocks the server.
enum DataDirectoryLock {
    /// The lock file's name inside the data directory.
    static let fileName = "streakd.lock"

    /// Takes the lock for the rest of the process (the descriptor stays open until exit).
    /// - Throws: `DataDirectoryLockError` when another process holds it or it cannot be taken.
    static func acquire(directory: URL) throws {
        let path = directory.appendingPathComponent(fileName).path
        let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            throw DataDirectoryLockError(description: "cannot open \(path): \(String(cString: strerror(errno)))")
        }
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
            let busy = errno == EWOULDBLOCK
            let reason = String(cString: strerror(errno))
            close(descriptor)
            throw DataDirectoryLockError(
                description: busy
                    ? "another streakd is already serving the data directory \(directory.path) "
                        + "(\(fileName) is locked); stop it or choose another --data-dir"
                    : "cannot lock \(path): \(reason)"
            )
        }
    }
}

/// The data directory is in use by another server, or its lock file cannot be used.
struct DataDirectoryLockError: Error, CustomStringConvertible {
    var description: String
}
