/// A habit a user tracks, with the window of days on which it counts.
public struct Habit: Hashable, Sendable, Identifiable {
    /// A positive identifier, unique per user.
    public var id: Int64
    /// The name people see. Never logged.
    public var name: String
    /// The first day on which the habit is active.
    public var createdOn: CivilDate
    /// The first day on which the habit is no longer active; nil while it is live.
    public var archivedOn: CivilDate?

    /// Creates a habit.
    public init(id: Int64, name: String, createdOn: CivilDate, archivedOn: CivilDate? = nil) {
        self.id = id
        self.name = name
        self.createdOn = createdOn
        self.archivedOn = archivedOn
    }

    /// Whether the habit counts on `day`: `createdOn <= day` and (`archivedOn` is nil or `day < archivedOn`).
    public func isActive(on day: CivilDate) -> Bool {
        createdOn <= day && (archivedOn.map { day < $0 } ?? true)
    }
}
