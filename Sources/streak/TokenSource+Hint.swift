import StreakClient

extension TokenSource {
    /// What to add to the server's UNAUTHENTICATED or PERMISSION_DENIED message (or to say
    /// before connecting): which token was sent, or why none was, for the server at `server`.
    func hint(server: ServerAddress) -> String {
        let newToken = "streakd user add NAME prints a new one"
        switch self {
        case .argument:
            return "the token given with --token is not one this streakd knows (\(newToken))"
        case .environment:
            return "the token in STREAK_TOKEN is not one this streakd knows (\(newToken))"
        case .file(let path):
            return "the token read from \(path) is not one this streakd knows: is that another streakd's data "
                + "directory? Set STREAKD_DATA_DIR to this server's, or pass --token or set STREAK_TOKEN (\(newToken))"
        case .fileProblem(let path, let reason):
            return "no token: neither --token nor STREAK_TOKEN is given, and the token file \(path) \(reason) "
                + "(a local streakd writes <data dir>/token on its first start: set STREAKD_DATA_DIR to its data "
                + "directory; for a remote one, \(newToken))"
        case .notLoopback:
            return "no token: the local token file is used only for a server on this machine, and \(server) is "
                + "not one; give --token or STREAK_TOKEN (on the server's machine, \(newToken))"
        case .none:
            return "pass --token or set STREAK_TOKEN (streakd user add NAME prints one)"
        }
    }
}
