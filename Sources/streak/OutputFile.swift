import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// `-o FILE`: the output is written to a temporary file in the same directory and renamed over
/// FILE, so that FILE is either the old one or the whole new one, never half-written. A FILE that
/// is a symbolic link keeps its link: the file it points to is replaced. A FILE that exists and is
/// not a regular file (`/dev/null`, `/dev/stdout`, a named pipe) is written into as it is: renamed
/// over, it would be replaced by a regular file.
///
/// The mode is the one a plain `open` would give: a new FILE gets 0666 less the umask, and a FILE
/// that is replaced keeps its permission bits (and its owner and group, as far as this user may
/// set them), unless `ownerOnly` makes it 0600 either way.
enum OutputFile {
    /// Writes `text` to `path`.
    /// - Parameter ownerOnly: make the file 0600 whether it is new or replaced, whatever the
    ///   umask (an export: personal data).
    /// - Throws: `CLIFailure(.usage)` for an empty path, `CLIFailure(.cantCreate)` (73) when FILE is
    ///   a directory or cannot be created or written; the temporary file is removed then.
    static func write(_ text: String, to path: String, ownerOnly: Bool = false) throws(CLIFailure) {
        guard !path.isEmpty else { throw CLIFailure(.usage, "-o needs a file name") }
        var isDirectory: ObjCBool = false
        if path.hasSuffix("/")
            || (FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && isDirectory.boolValue)
        {
            throw CLIFailure(.cantCreate, "cannot write \(path): it is a directory; give a file name")
        }
        var status = stat()
        if stat(path, &status) == 0 {
            if status.st_mode & S_IFMT != S_IFREG { return try writeInPlace(text, to: path) }
            // A link to a regular file: replace the file, keep the link.
            if let resolved = realpath(path, nil) {
                defer { free(resolved) }
                return try replace(
                    String(cString: resolved),
                    with: text,
                    keeping: ownerOnly ? nil : status,
                    ownerOnly: ownerOnly,
                    naming: path
                )
            }
        }
        try replace(path, with: text, keeping: nil, ownerOnly: ownerOnly, naming: path)
    }

    /// Writes `text` through a temporary file renamed over `path`; errors name `shown`.
    /// - Parameter existing: the status of the regular file being replaced, whose mode, owner and
    ///   group the new one takes; nil for a new file (0666 less the umask), or with `ownerOnly` (0600).
    private static func replace(
        _ path: String,
        with text: String,
        keeping existing: stat?,
        ownerOnly: Bool,
        naming shown: String
    ) throws(CLIFailure) {
        let url = URL(fileURLWithPath: path)
        let temporary = url.deletingLastPathComponent()
            .appendingPathComponent(".\(url.lastPathComponent).\(getpid()).tmp").path
        // Private while it is written; a new file's mode is then what open gives under the umask.
        let creationMode: mode_t = ownerOnly || existing != nil ? 0o600 : 0o666
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, creationMode)
        guard descriptor >= 0 else { throw failure(shown, errno) }
        if let existing {
            // Another owner is for root to keep; a group, for a member of it. Then the mode
            // (a change of owner clears set-ID bits, which are not kept anyway).
            if fchown(descriptor, existing.st_uid, existing.st_gid) != 0 {
                _ = fchown(descriptor, uid_t.max, existing.st_gid)
            }
            fchmod(descriptor, existing.st_mode & 0o777)
        } else if ownerOnly {
            fchmod(descriptor, 0o600)
        }
        let handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: false)
        do {
            try handle.write(contentsOf: Data(text.utf8))
            try handle.synchronize()
        } catch {
            close(descriptor)
            unlink(temporary)
            throw CLIFailure(.cantCreate, "cannot write \(shown): \(error.localizedDescription) (nothing was written)")
        }
        close(descriptor)
        guard rename(temporary, path) == 0 else {
            let code = errno
            unlink(temporary)
            throw failure(shown, code)
        }
    }

    /// Writes `text` into the existing non-regular file at `path` (a device or a pipe).
    private static func writeInPlace(_ text: String, to path: String) throws(CLIFailure) {
        let descriptor = open(path, O_WRONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw failure(path, errno) }
        defer { close(descriptor) }
        let handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: false)
        do {
            try handle.write(contentsOf: Data(text.utf8))
        } catch {
            throw CLIFailure(.cantCreate, "cannot write \(path): \(error.localizedDescription)")
        }
    }

    static func failure(_ path: String, _ code: Int32) -> CLIFailure {
        CLIFailure(.cantCreate, "cannot write \(path): \(String(cString: strerror(code))) (nothing was written)")
    }
}
