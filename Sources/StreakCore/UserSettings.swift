/// A user's preferences that shape every computed answer.
public struct UserSettings: Hashable, Sendable {
    /// An IANA time zone identifier; "today" is computed in it.
    public var timeZone: String
    /// A locale identifier for names and week order, e.g. `en_US`.
    public var locale: String
    /// The first weekday of a heatmap column.
    public var weekStart: Weekday
    /// The streak threshold in percent (1...100); nil means "at least one habit".
    public var minPercent: Int?
    /// When the user's day begins (default midnight): "today" follows it.
    public var dayStart: DayStart

    /// Creates settings; the defaults are UTC, en_US, Monday, no threshold and a day starting at midnight.
    public init(
        timeZone: String = "UTC",
        locale: String = "en_US",
        weekStart: Weekday = .monday,
        minPercent: Int? = nil,
        dayStart: DayStart = .midnight
    ) {
        self.dayStart = dayStart
        self.timeZone = timeZone
        self.locale = locale
        self.weekStart = weekStart
        self.minPercent = minPercent
    }

    /// The defaults of a new user.
    public static let defaults = UserSettings()
}
