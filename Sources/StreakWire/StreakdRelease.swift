/// The release of Streakd a build belongs to. The server, the client library and the
/// command-line client are built and released together, so `streakd --version`,
/// `streak --version` and GetServerInfo's `version` all report this one number.
public enum StreakdRelease {
    /// The release's version, `MAJOR.MINOR.PATCH`.
    public static let version = "0.3.0"
}
