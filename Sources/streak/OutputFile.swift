import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// `-o FILE`: the output is written to a temporary file in the same directory and renamed over
/// FILE, so that FILE is either the old one or the whole new one, never half-written.
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
        let url = URL(fileURLWithPath: path)
        let temporary = url.deletingLastPathComponent()
            .appendingPathComponent(".\(url.lastPathComponent).\(getpid()).tmp").path
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode)
        guard descriptor >= 0 else { throw failure(path, errno) }
        fchmod(descriptor, mode)
        let handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: false)
        do {
            try handle.write(contentsOf: Data(text.utf8))
            try handle.synchronize()
        } catch {
            close(descriptor)
            unlink(temporary)
            throw CLIFailure(.cantCreate, "cannot write \(path): \(error.localizedDescription) (nothing was written)")
        }
        close(descriptor)
        guard rename(temporary, path) == 0 else {
            let code = errno
            unlink(temporary)
            throw failure(path, code)
        }
    }

    static func failure(_ path: String, _ code: Int32) -> CLIFailure {
        CLIFailure(.cantCreate, "cannot write \(path): \(String(cString: strerror(code))) (nothing was written)")
    }
}
