import Foundation
import StreakClient

#if canImport(Glibc)
import Glibc
#endif

/// Where the bearer token came from (`--token`, `STREAK_TOKEN`, the local data directory's token
/// file) or, when none was found, why the token file gave none (or was not read, for a server on
/// another machine): what a refused or missing token's message names so that the user knows which
/// token, or which file, to look at.
enum TokenSource: Equatable {
    /// `--token`.
    case option
    /// `STREAK_TOKEN`.
    case environment
    /// The token file at this path.
    case file(String)
    /// No token: the token file at `path` gave none, for `problem` ("does not exist", "is a directory" ...).
    case missing(path: String, problem: String)
    /// No token: the server is not on this machine, and the local token file is only for one that is.
    case notLocal(ServerAddress)

    /// The source `ClientConfiguration.resolve` takes its token from for `server`, with the same order.
    static func find(
        option: String?,
        server: ServerAddress,
        environment: [String: String] = ProcessInfo.processInfo.environment
    )
        -> TokenSource
    {
        if let option, !option.isEmpty { return .option }
        if let token = environment["STREAK_TOKEN"], !token.isEmpty { return .environment }
        guard server.isLoopback else { return .notLocal(server) }
        let path = ClientConfiguration.defaultDataDirectory(environment: environment).appendingPathComponent("token")
            .path
        if let problem = fileProblem(path) { return .missing(path: path, problem: problem) }
        return .file(path)
    }

    /// Why the token file at `path` gives no token, or nil when it holds one.
    static func fileProblem(_ path: String) -> String? {
        var status = stat()
        guard stat(path, &status) == 0 else { return reason(errno) }
        if (status.st_mode & S_IFMT) == S_IFDIR { return "is a directory, not a file" }
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return reason(errno) }
        close(descriptor)
        guard let data = FileManager.default.contents(atPath: path) else { return "cannot be read" }
        let text = String(decoding: data, as: UTF8.self)
        if text.allSatisfy(\.isWhitespace) { return "is empty" }
        return nil
    }

    /// "does not exist", "cannot be read: Permission denied" ...
    static func reason(_ code: Int32) -> String {
        switch code {
        case ENOENT: "does not exist"
        case EACCES: "cannot be read: permission denied"
        default: "cannot be read: " + String(cString: strerror(code))
        }
    }

    /// What to add to the server's UNAUTHENTICATED or PERMISSION_DENIED message.
    var hint: String {
        let newToken = "streakd user add NAME prints a new one"
        switch self {
        case .option:
            return "the token given with --token is not one this streakd knows (\(newToken))"
        case .environment:
            return "the token in STREAK_TOKEN is not one this streakd knows (\(newToken))"
        case .file(let path):
            return "the token read from \(path) is not one this streakd knows: is that another streakd's data "
                + "directory? Set STREAKD_DATA_DIR to this server's, or pass --token or set STREAK_TOKEN (\(newToken))"
        case .missing(let path, let problem):
            return "no token: neither --token nor STREAK_TOKEN is given, and the token file \(path) \(problem) "
                + "(a local streakd writes <data dir>/token on its first start: set STREAKD_DATA_DIR to its data "
                + "directory; for a remote one, \(newToken))"
        case .notLocal(let server):
            return "no token: the local token file is used only for a server on this machine, and \(server) is "
                + "not one; give --token or STREAK_TOKEN (on the server's machine, \(newToken))"
        }
    }
}
