import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// The local token file (`<data dir>/token`), read once, with why it gave no token.
enum TokenFile {
    /// What reading the file gave.
    enum Outcome: Equatable {
        /// The token, surrounding whitespace removed.
        case token(String)
        /// No token, and nothing wrong with that: the file does not exist (no local streakd
        /// started with that data directory) or is empty.
        case absent(reason: String)
        /// The file is there but cannot be used: no permission, a directory, not text.
        case unreadable(reason: String)
    }

    /// Reads the token file at `path`.
    static func read(_ path: String) -> Outcome {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            let code = errno
            if code == ENOENT { return .absent(reason: "does not exist") }
            return .unreadable(reason: reason(code))
        }
        defer { close(descriptor) }
        var status = stat()
        if fstat(descriptor, &status) == 0, (status.st_mode & S_IFMT) == S_IFDIR {
            return .unreadable(reason: "is a directory, not a file")
        }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = buffer.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                return .unreadable(reason: reason(errno))
            }
            if count == 0 { break }
            bytes += buffer[0..<count]
            // A token is a line; a file this large is not one.
            if bytes.count > 64 * 1024 { return .unreadable(reason: "is too large to hold a token") }
        }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            return .unreadable(reason: "is not UTF-8 text")
        }
        let token = text.trimmingSpaces()
        return token.isEmpty ? .absent(reason: "is empty") : .token(token)
    }

    /// "cannot be read: permission denied", "cannot be read: input/output error" ...
    static func reason(_ code: Int32) -> String {
        switch code {
        case EACCES: "cannot be read: permission denied"
        default: "cannot be read: " + String(cString: strerror(code))
        }
    }
}
