import FoundationEssentials
import Glibc
import StreakPOSIX

/// The data directory, which holds the SQLite database and the local user's token.
public enum DataDirectory {
    /// Creates `path` and its missing parents with mode 0700 (nothing when it exists).
    /// - Throws: `StorageError(.io)` naming the directory and the reason.
    public static func create(_ path: String) throws(StorageError) {
        do {
            try FileManager.default.createDirectory(
                atPath: path,
                withIntermediateDirectories: true,
                attributes: [.posixPermissions: 0o700]
            )
        } catch {
            throw StorageError(
                .io,
                "cannot create the data directory \(path): \(error)",
                cause: error
            )
        }
    }
}

extension DataDirectory {
    /// Makes the data directory 0700 and every file directly in it 0600 (the database, its WAL and
    /// shared-memory files, the token, the lock): habit data and token hashes are nobody else's.
    /// - Returns: the paths whose mode was changed, for a log line (empty when all were right).
    public static func secure(_ path: String) -> [String] {
        var fixed: [String] = []
        func restrict(_ file: String, to mode: mode_t) {
            var info = stat()
            guard lstat(file, &info) == 0, (info.st_mode & S_IFMT) == (file == path ? S_IFDIR : S_IFREG) else { return }
            guard info.st_mode & 0o777 != mode else { return }
            if chmod(file, mode) == 0 { fixed.append(file) }
        }
        restrict(path, to: 0o700)
        for name in (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? [] {
            restrict(PathText.joining(path, name), to: 0o600)
        }
        return fixed
    }
}
