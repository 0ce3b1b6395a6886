/// A habit a user tracks, with the window of days on which it counts.
///
/// The window is never inverted: `archivedOn`, when set, is on or after `createdOn`. A habit
/// archived on the day it was created is legal and is never active.
public struct Habit: Hashable, Sendable, Identifiable {
    /// A positive identifier, unique per user.
    public var id: Int64
    /// The name people see. Never logged.
    public var name: String
    /// The first day on which the habit is active.
    public private(set) var createdOn: CivilDate
    /// The first day on which the habit is no longer active; nil while it is live.
    public private(set) var archivedOn: CivilDate?
    /// The weekdays on which it is expected, effective-dated; every day unless changed.
    public var schedule: HabitSchedule = .everyDay

    /// Creates a live habit.
    public init(id: Int64, name: String, createdOn: CivilDate) {
        self.id = id
        self.name = name
        self.createdOn = createdOn
        self.archivedOn = nil
    }

    /// Creates a habit that may be archived.
    /// - Throws: `CoreError(.invalidArgument)` when `archivedOn` is before `createdOn`.
    public init(id: Int64, name: String, createdOn: CivilDate, archivedOn: CivilDate?) throws(CoreError) {
        self.init(id: id, name: name, createdOn: createdOn)
        if let archivedOn { try archive(on: archivedOn) }
    }

    /// Archives the habit from `day` on: it stays active before `day`, history is kept.
    /// - Throws: `CoreError(.invalidArgument)` when `day` is before `createdOn`.
    public mutating func archive(on day: CivilDate) throws(CoreError) {
        guard day >= createdOn else {
            throw CoreError(
                .invalidArgument,
                "habit \(id) cannot be archived on \(day), before it was created on \(createdOn)"
            )
        }
        archivedOn = day
    }

    /// Whether the habit is active on `day` and its schedule expects it that day (skips and rest
    /// periods aside).
    public func isScheduled(on day: CivilDate) -> Bool {
        isActive(on: day) && schedule.isScheduled(on: day)
    }

    /// Whether the habit counts on `day`: `createdOn <= day` and (`archivedOn` is nil or `day < archivedOn`).
    public func isActive(on day: CivilDate) -> Bool {
        createdOn <= day && (archivedOn.map { day < $0 } ?? true)
    }

    /// Whether `other` is this habit counting on exactly the same days: the same id, window and
    /// schedule, whatever the name. A rename changes no heatmap cell and no streak.
    public func countsOnSameDays(as other: Habit) -> Bool {
        id == other.id && createdOn == other.createdOn && archivedOn == other.archivedOn
            && schedule == other.schedule
    }
}

extension Habit {
    /// A habit whose window is not checked: only for tests of code that must survive one anyway.
    init(id: Int64, name: String, createdOn: CivilDate, uncheckedArchivedOn: CivilDate?) {
        self.init(id: id, name: name, createdOn: createdOn)
        archivedOn = uncheckedArchivedOn
    }

    /// Makes the habit live again: it counts from its archive day on, as if never archived.
    public mutating func unarchive() {
        archivedOn = nil
    }
}
