/// What opening a store did to its schema, for the server to log: the version it found, the
/// version it left, and the migrations it applied in between (none when it was up to date).
public struct MigrationReport: Hashable, Sendable {
    /// The schema version the database had when it was opened (0: it was empty or new).
    public let before: Int
    /// The schema version it has now.
    public let after: Int
    /// The migrations applied, oldest first, as "VERSION (NAME)".
    public let applied: [String]

    /// Whether any migration ran.
    public var migrated: Bool { !applied.isEmpty }
}
