import Foundation

/// The zero-set-up local user: created on first start, its token written where the CLI finds it.
public enum LocalUser {
    /// The local user's name.
    public static let name = "local"
    /// The token file's name inside the data directory.
    public static let tokenFileName = "token"

    /// When the store has no users, creates user "local" and writes its token to
    /// `<dataDirectory>/token` with mode 0600 (written to a temporary file, then renamed).
    /// - Returns: the new token, or nil when users already exist.
    public static func ensure(store: any StreakStore, dataDirectory: String) throws(StorageError) -> String? {
        guard try store.users().isEmpty else { return nil }
        let (_, token) = try store.createUser(name: name)
        let path = (dataDirectory as NSString).appendingPathComponent(tokenFileName)
        let temporary = path + ".tmp"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        guard descriptor >= 0 else {
            throw StorageError(.io, "cannot write \(temporary): \(String(cString: strerror(errno)))")
        }
        let bytes = Array((token + "\n").utf8)
        let written = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        fsync(descriptor)
        close(descriptor)
        guard written == bytes.count, rename(temporary, path) == 0 else {
            throw StorageError(.io, "cannot write the token file \(path)")
        }
        return token
    }
}
