/// A habit as data that moves between accounts (an export, an import): its name and history,
/// without an id, which belongs to the account the data lands in.
///
/// An import matches it by exact name with the account's habits (the n-th of a name with the
/// n-th of the account) or creates it.
public struct HabitHistory: Hashable, Sendable {
    /// The name (1...200 characters, not blank: an import refuses a habit with any other).
    public var name: String
    /// The first day it counts (nil: the earliest day of its history, else today; see `firstDay`).
    public var createdOn: CivilDate?
    /// The first day it no longer counts (nil: live); an import archives a live habit from it.
    public var archivedOn: CivilDate?
    /// Its schedule entries, oldest first (empty: every day); an import sets each from its day,
    /// and setting one that is there changes nothing.
    public var schedule: [ScheduleEntry]
    /// The days it was done: ascending, without duplicates, as the export and Loop readers give
    /// them (an import takes them in any order).
    public var completions: [CivilDate]
    /// The days it was excused, as `completions` are.
    public var skips: [CivilDate]

    /// Creates a habit's history.
    public init(
        name: String,
        createdOn: CivilDate? = nil,
        archivedOn: CivilDate? = nil,
        schedule: [ScheduleEntry] = [],
        completions: [CivilDate] = [],
        skips: [CivilDate] = []
    ) {
        self.name = name
        self.createdOn = createdOn
        self.archivedOn = archivedOn
        self.schedule = schedule
        self.completions = completions
        self.skips = skips
    }

    /// The first day it counts as far as the history tells: `createdOn`, else the earliest of
    /// its completions, skips and archive day (nil: none of them, so a new habit starts today).
    /// A habit archived before any record of it starts on its archive day, archived: it never
    /// counted, rather than live from today with its archive day refused.
    public var firstDay: CivilDate? {
        createdOn ?? [completions.min(), skips.min(), archivedOn].compactMap { $0 }.min()
    }
}
