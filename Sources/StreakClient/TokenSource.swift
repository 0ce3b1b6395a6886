/// Where a configuration's token came from or, when it has none, why: what a refused or
/// missing token's message should name so that the user knows which token, or which file, to
/// look at.
public enum TokenSource: Hashable, Sendable {
    /// Given by the program: `resolve`'s `token`, or `ClientConfiguration.init`'s.
    case argument
    /// `STREAK_TOKEN`.
    case environment
    /// The local token file at `path`.
    case file(path: String)
    /// No token: the local token file at `path` gave none, for `reason` ("does not exist", "is empty").
    case fileProblem(path: String, reason: String)
    /// No token: the server is not on this machine, and the local token file is only for one that is.
    case notLoopback
    /// No token, and none was looked for (a configuration made with `init` without one).
    case none
}
