public import StreakCore

/// What an import brings into an account, whatever file it came from (Streakd's JSON export or
/// Loop Habit Tracker's CSV archive): habits with their history, rest periods and settings.
///
/// Habits (`HabitHistory`) are matched to the account's habits by name (or created); dates are
/// civil dates. Nothing here is an id: ids belong to the account the data lands in.
public struct ImportArchive: Hashable, Sendable {
    /// A rest period, both days included.
    public struct RestPeriod: Hashable, Sendable {
        /// The first day of rest.
        public var from: CivilDate
        /// The last day of rest.
        public var to: CivilDate
        /// Why (at most 200 characters).
        public var note: String

        /// Creates a rest period.
        public init(from: CivilDate, to: CivilDate, note: String = "") {
            self.from = from
            self.to = to
            self.note = note
        }
    }

    /// The settings an export carries (nil fields: keep the account's).
    public struct Settings: Hashable, Sendable {
        /// An IANA time zone.
        public var timeZone: String?
        /// A locale identifier.
        public var locale: String?
        /// The heatmap's first row.
        public var weekStart: Weekday?
        /// The streak threshold (nil: at least one habit).
        public var minPercent: Int?
        /// Minutes after midnight the day begins (0...720).
        public var dayStartMinutes: Int?

        /// Creates settings.
        public init(
            timeZone: String? = nil,
            locale: String? = nil,
            weekStart: Weekday? = nil,
            minPercent: Int? = nil,
            dayStartMinutes: Int? = nil
        ) {
            self.timeZone = timeZone
            self.locale = locale
            self.weekStart = weekStart
            self.minPercent = minPercent
            self.dayStartMinutes = dayStartMinutes
        }
    }

    /// The habits, in the order they were created.
    public var habits: [HabitHistory]
    /// The rest periods, by first day.
    public var restPeriods: [RestPeriod]
    /// The settings, when the source has them (Loop's archive has none).
    public var settings: Settings?
    /// What the reader left out and why, one line each (e.g. "Run: 12 automatic checks ignored").
    public var notes: [String]

    /// Creates an archive.
    public init(
        habits: [HabitHistory] = [],
        restPeriods: [RestPeriod] = [],
        settings: Settings? = nil,
        notes: [String] = []
    ) {
        self.habits = habits
        self.restPeriods = restPeriods
        self.settings = settings
        self.notes = notes
    }
}

/// A file that cannot be imported: which file, which line and field, and why.
public struct ImportError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The file (as the user named it, or its path inside an archive).
    public var file: String
    /// The 1-based line, when the problem is on one.
    public var line: Int?
    /// The field (a CSV column or a JSON key path), when the problem is in one.
    public var field: String?
    /// What is wrong.
    public var message: String

    /// Creates an error.
    public init(file: String, line: Int? = nil, field: String? = nil, message: String) {
        self.file = file
        self.line = line
        self.field = field
        self.message = message
    }

    /// `Habits.csv:3: Name: ...`.
    public var description: String {
        var text = file
        if let line { text += ":\(line)" }
        if let field { text += ": \(field)" }
        return text + ": " + message
    }
}
