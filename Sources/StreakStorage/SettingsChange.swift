import StreakCore

/// A partial settings update: the fields that are set replace the stored ones, the others stay.
///
/// Merged with the stored settings inside the write's transaction, so that two concurrent
/// updates of different fields both survive.
public struct SettingsChange: Hashable, Sendable {
    /// What happens to the streak threshold.
    public enum Threshold: Hashable, Sendable {
        /// It stays as it is.
        case keep
        /// It is removed ("at least one habit").
        case clear
        /// It becomes this percentage (1...100).
        case set(Int)
    }

    /// A new time zone, or nil to keep it.
    public var timeZone: String?
    /// A new locale, or nil to keep it.
    public var locale: String?
    /// A new week start, or nil to keep it.
    public var weekStart: Weekday?
    /// The threshold change.
    public var minPercent: Threshold
    /// A new start of the day, or nil to keep it.
    public var dayStart: DayStart?

    /// Creates a change; by default it changes nothing.
    public init(
        timeZone: String? = nil,
        locale: String? = nil,
        weekStart: Weekday? = nil,
        minPercent: Threshold = .keep,
        dayStart: DayStart? = nil
    ) {
        self.dayStart = dayStart
        self.timeZone = timeZone
        self.locale = locale
        self.weekStart = weekStart
        self.minPercent = minPercent
    }

    /// `settings` with this change applied.
    public func applied(to settings: UserSettings) -> UserSettings {
        var result = settings
        if let timeZone { result.timeZone = timeZone }
        if let locale { result.locale = locale }
        if let weekStart { result.weekStart = weekStart }
        if let dayStart { result.dayStart = dayStart }
        switch minPercent {
        case .keep: break
        case .clear: result.minPercent = nil
        case .set(let percent): result.minPercent = percent
        }
        return result
    }
}
