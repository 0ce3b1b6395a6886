import StreakCore
import StreakStorage

/// What the service keeps in memory for one user: the completion index (habits included) and the settings.
struct UserData: Sendable {
    /// Habits and completions, indexed by day.
    var index: CompletionIndex
    /// The user's settings.
    var settings: UserSettings
    /// The user's rest periods as stored (the index holds their days).
    private(set) var restPeriods: [RestPeriodRecord]

    init(
        habits: [Habit],
        completions: [Completion],
        skips: [Skip] = [],
        restPeriods: [RestPeriodRecord] = [],
        settings: UserSettings
    ) {
        index = CompletionIndex(
            habits: habits,
            completions: completions,
            skips: skips,
            restPeriods: restPeriods.map(\.period)
        )
        self.restPeriods = restPeriods.sorted()
        self.settings = settings
    }

    /// The data of a user as the store read it.
    init(_ snapshot: UserSnapshot) {
        index = CompletionIndex(
            habits: snapshot.habits,
            completions: [],
            completionDays: snapshot.completionDays,
            skips: snapshot.skips,
            restPeriods: snapshot.restPeriods.map(\.period)
        )
        restPeriods = snapshot.restPeriods
        settings = snapshot.settings
    }

    /// The streak threshold of the settings. The store refuses an out-of-range `min_percent` both
    /// when it is written and when it is read back (`.corrupt`), so the default here stands only
    /// for settings that never came from the store.
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

    /// Applies completion and skip changes after the store acknowledged them.
    /// - Returns: with `reportingDays`, the days whose completions or skips changed here (also
    ///   when the store had the change already: another server made it and this one has not
    ///   followed it yet); otherwise none.
    @discardableResult
    mutating func apply(_ changes: some Sequence<CompletionChange>, reportingDays: Bool = false) -> [CivilDate] {
        var days: [CivilDate] = []
        for change in changes {
            let (before, after) = index.apply(change.action, habitID: change.habitID, date: change.date)
            if reportingDays && before != after { days.append(change.date) }
        }
        return days
    }

    /// Adds or removes a rest period after the store acknowledged it.
    mutating func apply(restPeriod record: RestPeriodRecord, added: Bool) {
        restPeriods.removeAll { $0.id == record.id }
        if added { restPeriods.append(record) }
        restPeriods.sort()
        index.replaceRestPeriods(restPeriods.map(\.period))
    }

    /// Replaces the habits, rest periods and settings by those read from the store (another
    /// server changed them), keeping completions and skips. - Returns: whether anything changed.
    mutating func replace(_ profile: HabitsAndSettings) -> Bool {
        var changed = index.replaceHabits(profile.habits)
        let periods = profile.restPeriods.sorted()
        if periods != restPeriods {
            restPeriods = periods
            index.replaceRestPeriods(periods.map(\.period))
            changed = true
        }
        if profile.settings != settings {
            settings = profile.settings
            changed = true
        }
        return changed
    }

    /// The heap bytes this data holds: the index, the rest periods with their notes and the
    /// settings' strings (see `HeapEstimate`).
    var estimatedHeapBytes: Int {
        index.estimatedHeapBytes + HeapEstimate.array(restPeriods)
            + restPeriods.reduce(0) { $0 + HeapEstimate.string($1.note) }
            + HeapEstimate.string(settings.timeZone) + HeapEstimate.string(settings.locale)
    }

    /// The user's rest period with `id`; NOT_FOUND when there is none.
    func requireRestPeriod(_ id: Int64) throws(ServiceError) -> RestPeriodRecord {
        guard let record = restPeriods.first(where: { $0.id == id }) else {
            throw ServiceError(.notFound, "no rest period with id \(id)")
        }
        return record
    }

    /// The record of a day under the user's threshold.
    func dayRecord(on date: CivilDate) -> DayRecord {
        index.record(on: date, threshold: threshold)
    }

    /// The streak summary as of a day under the user's threshold.
    func streakSummary(asOf: CivilDate) -> StreakSummary {
        StreakCalculator.summary(index, threshold: threshold, asOf: asOf)
    }

    /// The streak summary as of a day under the user's threshold, and a checkpoint for the
    /// index to keep (see `StreakCalculator.summaryAndCheckpoint`).
    func streakSummaryAndCheckpoint(asOf: CivilDate) -> (summary: StreakSummary, checkpoint: StreakCheckpoint?) {
        StreakCalculator.summaryAndCheckpoint(index, threshold: threshold, asOf: asOf)
    }
}
