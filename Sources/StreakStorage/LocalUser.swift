import Dispatch
import FoundationEssentials
import Glibc
import StreakCore
import StreakPOSIX
import Synchronization

/// The zero-set-up local user: created on first start, its token written where the CLI finds it.
public enum LocalUser {
    /// The local user's name.
    public static let name = "local"
    /// The token file's name inside the data directory.
    public static let tokenFileName = "token"

    /// When the store has no users, creates user "local" and writes its token to
    /// `<dataDirectory>/token` with mode 0600 (creating the directory, mode 0700). When "local"
    /// exists (and is not revoked) but the token file does not (a crash between the commit and
    /// the file, or a deleted file), gives it a new token, which revokes the old one, and writes
    /// that — unless `reissue` is false: a store that several servers share (PostgreSQL) keeps the
    /// token that another server's data directory may hold.
    ///
    /// A user created here takes `timeZone` (the machine's zone, so that "today" is the person's
    /// day from the first command on, not UTC's), durably, before the token file is written.
    /// - Returns: the token written, or nil when nothing had to be done.
    public static func ensure(
        store: any StreakStore,
        dataDirectory: String,
        reissue: Bool = true,
        timeZone: String = "UTC"
    ) throws(StorageError) -> String? {
        let path = PathText.joining(dataDirectory, tokenFileName)
        let users = try store.users()
        let token: String
        if users.isEmpty {
            let created = try store.createUser(name: name)
            if !Today.utcIdentifiers.contains(timeZone) {
                try setTimeZone(timeZone, of: created.user.id, in: store)
            }
            token = created.token
        } else if reissue, let local = users.first(where: { $0.name == name }), !local.revoked,
            !FileManager.default.fileExists(atPath: path)
        {
            token = try store.issueToken(name: name)
        } else {
            return nil
        }
        try DataDirectory.create(dataDirectory)
        try writeTokenFile(token, to: path)
        return token
    }

    /// Why `ensure` wrote no token file although there is none (nil: the file is there): for the
    /// server's log, so that a missing token file is never a mystery.
    public static func missingTokenFileReason(
        store: any StreakStore,
        dataDirectory: String,
        reissue: Bool = true
    ) throws(StorageError) -> String? {
        guard !FileManager.default.fileExists(atPath: PathText.joining(dataDirectory, tokenFileName)) else {
            return nil
        }
        guard let local = try store.users().first(where: { $0.name == name }) else {
            return "there is no user \"\(name)\" (the store had users before its first start): "
                + "clients need a user's token from `streakd user add NAME`"
        }
        if local.revoked {
            return "the user \"\(name)\" is revoked, so it gets no new token: "
                + "clients need a user's token from `streakd user add NAME`"
        }
        guard reissue else {
            return "a shared database keeps the user \"\(name)\"'s token (other servers may use it): copy the "
                + "token file from the data directory of the server that wrote it"
        }
        return nil
    }

    /// Sets the user's time zone durably, waiting for the store's acknowledgement.
    static func setTimeZone(_ timeZone: String, of user: UserID, in store: any StreakStore) throws(StorageError) {
        let done = DispatchSemaphore(value: 0)
        let outcome = Mutex<Result<StoreWriteResult, StorageError>?>(nil)
        store.submit(.changeSettings(SettingsChange(timeZone: timeZone)), for: user) { result in
            outcome.withLock { $0 = result }
            done.signal()
        }
        done.wait()
        if case .failure(let error) = outcome.withLock({ $0 }) { throw error }
    }

    /// Writes `token` to `path` with mode 0600, atomically: a fresh temporary file (a leftover
    /// one is removed first, whatever its mode), flushed to disk, then renamed over `path`.
    static func writeTokenFile(_ token: String, to path: String) throws(StorageError) {
        let temporary = path + ".tmp"
        if unlink(temporary) != 0 && errno != ENOENT {
            throw StorageError(.io, "cannot remove the stale \(temporary): \(String(cString: strerror(errno)))")
        }
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            throw StorageError(.io, "cannot create \(temporary): \(String(cString: strerror(errno)))")
        }
        let bytes = Array((token + "\n").utf8)
        // fchmod: the umask may have narrowed the mode, and it must be exactly 0600.
        let written = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        let complete = fchmod(descriptor, 0o600) == 0 && written == bytes.count && fsync(descriptor) == 0
        close(descriptor)
        guard complete, rename(temporary, path) == 0 else {
            unlink(temporary)
            throw StorageError(.io, "cannot write the token file \(path)")
        }
        // The rename is durable once the directory is.
        let directory = open(PathText.parent(of: path), O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if directory >= 0 {
            fsync(directory)
            close(directory)
        }
    }
}
