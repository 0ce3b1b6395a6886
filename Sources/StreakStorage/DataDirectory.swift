import Foundation

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
                "cannot create the data directory \(path): \(error.localizedDescription)",
                cause: error
            )
        }
    }
}
