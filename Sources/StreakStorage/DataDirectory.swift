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
    /// A `path` that is a symbolic link secures the directory it points to: the directory is
    /// opened once and changed through that descriptor, and its files relative to it, so that the
    /// path cannot be swapped for another directory meanwhile. Links inside it are left alone.
    /// - Returns: the paths whose mode was changed, for a log line (empty when all were right).
    public static func secure(_ path: String) -> [String] {
        let directory = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard directory >= 0 else { return [] }
        defer { close(directory) }
        var fixed: [String] = []
        var info = stat()
        if fstat(directory, &info) == 0, info.st_mode & 0o777 != 0o700, fchmod(directory, 0o700) == 0 {
            fixed.append(path)
        }
        for name in entries(of: directory) {
            guard fstatat(directory, name, &info, AT_SYMLINK_NOFOLLOW) == 0, (info.st_mode & S_IFMT) == S_IFREG,
                info.st_mode & 0o777 != 0o600
            else { continue }
            if fchmodat(directory, name, 0o600, 0) == 0 { fixed.append(PathText.joining(path, name)) }
        }
        return fixed
    }

    /// The names in the open directory `descriptor`, without `.` and `..`.
    private static func entries(of descriptor: Int32) -> [String] {
        let copy = dup(descriptor)
        guard copy >= 0 else { return [] }
        guard let stream = fdopendir(copy) else {
            close(copy)
            return []
        }
        defer { closedir(stream) }
        var names: [String] = []
        while let entry = readdir(stream) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { bytes in
                String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }
}
