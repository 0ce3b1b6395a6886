/// Everything about one day of one user: what was done and how it counts.
///
/// `due` is what percentage, level and the contributing flag are measured against: the active
/// habits that were done that day or expected (on their schedule, not skipped, no rest period).
/// Without schedules, skips and rest periods `due == active`.
public struct DayRecord: Hashable, Sendable {
    /// The day.
    public var date: CivilDate
    /// The ids of the habits completed that day that were active that day, ascending.
    public var completedHabitIDs: [Int64]
    /// How many habits active that day were completed (never more than `due`).
    public var completed: Int
    /// How many habits were active that day (in their window, expected or not).
    public var active: Int
    /// How many active habits were due that day: done, or scheduled, not skipped and not resting.
    public var due: Int
    /// The completion percentage shown to people (see `Percentage.shown`), of `due`; 0 on a rest day,
    /// which shows no percentage.
    public var percentage: Int
    /// The heatmap intensity, of `due`.
    public var level: IntensityLevel
    /// Whether the day counts towards a streak, of `due`.
    public var contributes: Bool
    /// Whether every active habit was excused (`active > 0` and `due == 0`): a neutral day that
    /// neither breaks a streak nor counts in it.
    public var isRestDay: Bool
    /// The ids of the active habits skipped that day, ascending (empty unless the record came from
    /// an index with skips).
    public var skippedHabitIDs: [Int64] = []

    /// Creates the record of a day on which every active habit was due.
    public init(date: CivilDate, completedHabitIDs: [Int64], active: Int, threshold: StreakThreshold = .atLeastOneHabit)
    {
        self.init(date: date, completedHabitIDs: completedHabitIDs, due: active, active: active, threshold: threshold)
    }

    /// Creates the record of a day from its counts, deriving percentage, level and the flags.
    public init(
        date: CivilDate,
        completedHabitIDs: [Int64],
        due: Int,
        active: Int,
        threshold: StreakThreshold = .atLeastOneHabit
    ) {
        self.date = date
        self.completedHabitIDs = completedHabitIDs
        self.completed = completedHabitIDs.count
        self.active = active
        self.due = due
        self.percentage = Percentage.shown(completed: completed, active: due)
        self.level = IntensityLevel(completed: completed, active: due)
        self.contributes = threshold.contributes(completed: completed, active: due)
        self.isRestDay = active > 0 && due == 0
    }
}

/// The percentage shown to people.
public enum Percentage {
    /// `completed * 100 / active` rounded half up, never 100 unless all were completed and
    /// never 0 when one was (clamped to 99 and 1); 0 when no habit was active.
    public static func shown(completed: Int, active: Int) -> Int {
        guard active > 0 else { return 0 }
        let rounded = (completed * 200 + active) / (2 * active)
        if completed < active && rounded >= 100 { return 99 }
        if completed > 0 && rounded <= 0 { return 1 }
        return rounded
    }
}

/// The intensity of a heatmap cell: none, light (1-49%), medium (50-99%) or full (100%).
public enum IntensityLevel: Int, Hashable, Sendable, CaseIterable, Comparable {
    /// Nothing completed.
    case none = 0
    /// Fewer than half completed: `2 * completed < active`.
    case light = 1
    /// At least half, not all.
    case medium = 2
    /// Everything active was completed.
    case full = 3

    /// The level by exact integer comparison, no floating point.
    public init(completed: Int, active: Int) {
        if completed <= 0 {
            self = .none
        } else if completed >= active {
            self = .full
        } else if 2 * completed < active {
            self = .light
        } else {
            self = .medium
        }
    }

    /// Orders levels from 0 to 3.
    public static func < (lhs: IntensityLevel, rhs: IntensityLevel) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// When a day contributes to a streak: at least one habit, and optionally a minimum percentage.
public struct StreakThreshold: Hashable, Sendable {
    /// The minimum percentage (1...100), or nil for "at least one habit".
    public let minPercent: Int?

    /// The default: at least one habit completed.
    public static let atLeastOneHabit = StreakThreshold(uncheckedMinPercent: nil)

    /// The minimum percentages there are (`min_percent`, docs/PROTOCOL.md section 2.2): the
    /// server, the store, the CLI and the import reader all check against this one range.
    public static let percentRange = 1...100

    /// Why `minPercent` is not a minimum percentage (the message the server answers
    /// INVALID_ARGUMENT with), or nil when it is one.
    public static func problem(minPercent: Int) -> String? {
        percentRange.contains(minPercent)
            ? nil : "min_percent must be \(percentRange.lowerBound)...\(percentRange.upperBound), got \(minPercent)"
    }

    /// A threshold.
    /// - Throws: `CoreError(.invalidArgument)` unless `minPercent` is nil or in `percentRange`.
    public init(minPercent: Int?) throws(CoreError) {
        if let minPercent, let problem = Self.problem(minPercent: minPercent) {
            throw CoreError(.invalidArgument, problem)
        }
        self.minPercent = minPercent
    }

    private init(uncheckedMinPercent: Int?) {
        minPercent = uncheckedMinPercent
    }

    /// `completed >= 1` and, with a minimum, `completed * 100 >= minPercent * active`.
    public func contributes(completed: Int, active: Int) -> Bool {
        guard completed >= 1 else { return false }
        guard let minPercent else { return true }
        return completed * 100 >= minPercent * active
    }
}
