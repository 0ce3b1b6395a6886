import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// `-o FILE`: the output is written to a temporary file in the same directory and renamed over
/// FILE, so that FILE is either the old one or the whole new one, never half-written. A FILE that
/// is a symbolic link keeps its link: the file it points to is replaced. A FILE that exists and is
/// not a regular file (`/dev/null`, `/dev/stdout`, a named pipe) is written into as it is: renamed
/// over, it would be replaced by a regular file.
enum OutputFile {
    /// Writes `text` to `path`.
    /// - Throws: `CLIFailure(.usage)` for an empty path, `CLIFailure(.cantCreate)` (73) when FILE is
    ///   a directory or cannot be created or written; the temporary file is removed then.
    static func write(_ text: String, to path: String, mode: mode_t = 0o644) throws(CLIFailure) {
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
                return try replace(String(cString: resolved), with: text, mode: mode, naming: path)
            }
        }
        try replace(path, with: text, mode: mode, naming: path)
    }

    /// Writes `text` through a temporary file renamed over `path`; errors name `shown`.
    private static func replace(
        _ path: String,
        with text: String,
        mode: mode_t,
        naming shown: String
    ) throws(CLIFailure) {
        let url = URL(fileURLWithPath: path)
        let temporary = url.deletingLastPathComponent()
            .appendingPathComponent(".\(url.lastPathComponent).\(getpid()).tmp").path
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode)
        guard descriptor >= 0 else { throw failure(shown, errno) }
        fchmod(descriptor, mode)
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
