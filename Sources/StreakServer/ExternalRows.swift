import StreakCore
import StreakStorage

/// Rows read from the store after another server changed them.
struct ExternalRows: Sendable {
    /// The days whose rows were read; nil: every day of the user.
    var days: [CivilDate]?
    /// The completions and skips of those days.
    var dayRows: DayRows
    /// The habits and settings, when they were read.
    var habitsAndSettings: HabitsAndSettings?
}

/// What applying `ExternalRows` did.
struct ExternalApplied: Sendable {
    /// The days whose completions or skips changed in memory: those the user's watchers get.
    /// A day a notice named that did not change here gets no event: the write changed nothing
    /// (a single record or removal is logged before its result is known), or this server's
    /// memory had the change already, from a write of its own that sent its event
    /// (`StreakService.applyCompletions`) or a reload that did (`reloadAndNotify`).
    var changedDays: [CivilDate]
    /// What was not applied because a write of this server touched it meanwhile: read it again.
    var unapplied: ChangedData
    /// The data before the rows were applied, when the caller asked for it (a watched user) and
    /// they changed something.
    var before: UserData? = nil
}
