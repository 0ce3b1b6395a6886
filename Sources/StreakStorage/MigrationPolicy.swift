/// Whether opening a store may move an existing database's schema forward.
///
/// Only a server upgrades a store: a newer schema cannot be read by an older streakd, so an
/// administrative command run with a newer binary must not change the schema under servers of
/// the older version (they could not restart). A new, empty database is created by either.
public enum MigrationPolicy: Sendable {
    /// Apply every missing migration (the server).
    case upgrade
    /// Create the schema of an empty database, and refuse one whose schema is older than this
    /// streakd's with `.failedPrecondition`, leaving it unchanged (administrative commands).
    case refuseUpgrade
}
