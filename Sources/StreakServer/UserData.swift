import StreakCore
import StreakStorage

/// What the service keeps in memory for one user: the completion index (habits included) and the settings.
struct UserData: Sendable {
    /// Habits and completions, indexed by day.
    var index: CompletionIndex
    /// The user's settings.
    var settings: UserSettings

    init(habits: [Habit], completions: [Completion], settings: UserSettings) {
        index = CompletionIndex(habits: habits, completions: completions)
        self.settings = settings
    }

    /// The streak threshold of the settings.
    var threshold: StreakThreshold {
        (try? StreakThreshold(minPercent: settings.minPercent)) ?? .atLeastOneHabit
    }

    /// Throws NOT_FOUND unless the user has a habit with `id`.
    func requireHabit(_ id: Int64) throws(ServiceError) {
        guard index.habit(id: id) != nil else { throw ServiceError.habitNotFound(id) }
    }

    /// Adds or replaces a habit after the store acknowledged it.
    mutating func upsert(_ habit: Habit) {
        index.upsert(habit)
    }

    /// Applies completion changes after the store acknowledged them.
    mutating func apply(_ changes: [CompletionChange]) {
        for change in changes {
            switch change {
            case .record(let habitID, let date): index.record(habitID: habitID, date: date)
            case .remove(let habitID, let date): index.remove(habitID: habitID, date: date)
            }
        }
    }

    /// The record of a day under the user's threshold.
    func dayRecord(on date: CivilDate) -> DayRecord {
        index.record(on: date, threshold: threshold)
    }

    /// The streak summary as of a day under the user's threshold.
    func streakSummary(asOf: CivilDate) -> StreakSummary {
        StreakCalculator.summary(index, threshold: threshold, asOf: asOf)
    }
}
