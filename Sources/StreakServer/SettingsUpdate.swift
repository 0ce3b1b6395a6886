import FoundationEssentials
import StreakCore
import StreakStorage
import StreakWire

/// Turns an UpdateSettings request into a settings change: only the fields that are set change.
enum SettingsUpdate {
    /// The change the request asks for.
    /// - Throws: INVALID_ARGUMENT for an unknown time zone or locale, `min_percent` outside 1...100,
    ///   or `day_start_minutes` outside 0...720.
    static func change(_ request: WireUpdateSettingsRequest) throws -> SettingsChange {
        var change = SettingsChange()
        if !request.timeZone.isEmpty {
            _ = try Today.timeZone(request.timeZone)
            change.timeZone = request.timeZone
        }
        if !request.locale.isEmpty {
            _ = try LocaleProfile.named(request.locale)
            change.locale = request.locale
        }
        change.weekStart = request.weekStart
        if request.clearMinPercent {
            change.minPercent = .clear
        }
        if request.minPercent != 0 {
            if let problem = StreakThreshold.problem(minPercent: Int(request.minPercent)) {
                throw ServiceError.invalidArgument(problem)
            }
            change.minPercent = .set(Int(request.minPercent))
        }
        if request.setDayStart {
            do {
                change.dayStart = try DayStart(minutes: Int(request.dayStartMinutes))
            } catch {
                throw ServiceError.invalidArgument(
                    "day_start_minutes \(request.dayStartMinutes) is outside 0...720",
                    cause: error
                )
            }
        }
        return change
    }
}
