import StreakCore
import StreakWire

extension WireSettings {
    /// The wire form of a user's settings (`min_percent` 0 when unset).
    init(_ settings: UserSettings) {
        self.init()
        timeZone = settings.timeZone
        locale = settings.locale
        weekStart = settings.weekStart
        minPercent = Int32(settings.minPercent ?? 0)
        dayStartMinutes = Int32(settings.dayStart.minutes)
    }
}
