#if canImport(Glibc)
import Glibc
#endif

/// The sync of a write-ahead log that its COMMIT left to the writer (SQLite under the deferring
/// VFS, `streak_wal_vfs.h`): an `fdatasync` of the log on a descriptor of its own, so that it may
/// run on another thread while the writer's connection commits the next transaction. Every
/// transaction committed before it was taken is durable once `run` returns.
struct DeferredSync: Sendable {
    let descriptor: Int32

    /// Syncs the log and closes the descriptor; run once.
    func run() throws(StorageError) {
        defer { close(descriptor) }
        while fdatasync(descriptor) != 0 {
            guard errno == EINTR else {
                throw StorageError(.io, "fdatasync of the write-ahead log failed (errno \(errno))")
            }
        }
    }

    /// Closes the descriptor without syncing (a later sync covers its transactions).
    func discard() {
        close(descriptor)
    }
}
