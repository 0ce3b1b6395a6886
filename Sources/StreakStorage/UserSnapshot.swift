public import StreakCore

/// Everything a server keeps of one user, read at once (`StreakStore.snapshot(of:)`).
public struct UserSnapshot: Sendable {
    /// The habits with their schedules, archived ones included, by id.
    public var habits: [Habit]
    /// Each habit's completions as day numbers (days since 1970-01-01; `CompletionIndex`'s
    /// compact input), in no particular order.
    public var completionDays: [(habitID: Int64, dayNumbers: [Int])]
    /// The skips.
    public var skips: [Skip]
    /// The rest periods, ascending by first day then id.
    public var restPeriods: [RestPeriodRecord]
    /// The settings (the defaults until changed).
    public var settings: UserSettings

    /// Creates a snapshot.
    public init(
        habits: [Habit],
        completionDays: [(habitID: Int64, dayNumbers: [Int])],
        skips: [Skip],
        restPeriods: [RestPeriodRecord],
        settings: UserSettings
    ) {
        self.habits = habits
        self.completionDays = completionDays
        self.skips = skips
        self.restPeriods = restPeriods
        self.settings = settings
    }
}

extension StreakStore {
    /// The user's data through the five reads (a store that has no single read for it).
    public func snapshot(of user: UserID) throws(StorageError) -> UserSnapshot {
        let completions = try completions(of: user)
        var days: [Int64: [Int]] = [:]
        for completion in completions { days[completion.habitID, default: []].append(completion.date.dayNumber) }
        return UserSnapshot(
            habits: try habits(of: user),
            completionDays: days.map { (habitID: $0.key, dayNumbers: $0.value) },
            skips: try skips(of: user),
            restPeriods: try restPeriods(of: user),
            settings: try settings(of: user)
        )
    }
}
