public import StreakCore

/// A batch of a user's data to bring in (`StoreWrite.importData`), applied in one transaction.
public struct ImportBatch: Hashable, Sendable {
    /// The habits, each matched by exact name with the user's habits (the lowest id wins) or created.
    public var habits: [HabitHistory]
    /// Rest periods with their notes (ids ignored); one equal in days and note to a stored one is not added.
    public var restPeriods: [RestPeriodRecord]
    /// A settings change (nil: none).
    public var settings: SettingsChange?
    /// The user's today: a new habit without records starts on it.
    public var today: CivilDate

    /// Creates a batch.
    public init(
        habits: [HabitHistory] = [],
        restPeriods: [RestPeriodRecord] = [],
        settings: SettingsChange? = nil,
        today: CivilDate
    ) {
        self.habits = habits
        self.restPeriods = restPeriods
        self.settings = settings
        self.today = today
    }

}

/// What an import did: counts of what it added, the records it refused, and the habits it landed in.
public struct ImportOutcome: Hashable, Sendable {
    /// One record that was not applied (the rest of the batch was).
    public struct RecordError: Hashable, Sendable {
        /// Index into the batch's habits; nil for a rest period or the settings.
        public var habitIndex: Int?
        /// `name`, `completions`, `skips`, `schedule`, `archived_on`, `rest_periods` or `settings`.
        public var field: String
        /// The record's day, when it has one.
        public var date: CivilDate?
        /// Why.
        public var message: String

        /// Creates an error.
        public init(habitIndex: Int?, field: String, date: CivilDate? = nil, message: String) {
            self.habitIndex = habitIndex
            self.field = field
            self.date = date
            self.message = message
        }
    }

    /// New habits.
    public var habitsCreated = 0
    /// Habits that matched one of the user's by name.
    public var habitsMatched = 0
    /// New completions (ones already stored are not counted).
    public var completionsAdded = 0
    /// New skips.
    public var skipsAdded = 0
    /// New rest periods.
    public var restPeriodsAdded = 0
    /// Schedule entries that changed something.
    public var schedulesSet = 0
    /// Whether the settings changed.
    public var settingsChanged = false
    /// The records refused.
    public var errors: [RecordError] = []
    /// The habit each batch habit landed in, in batch order (nil: its name was refused).
    public var habits: [Habit?] = []
    /// Days whose records may have changed (completions, skips, rest periods), ascending.
    public var changedDays: [CivilDate] = []

    /// An empty outcome.
    public init() {}
}
