import Foundation
import StreakCore
import StreakWire

/// Applies an UpdateSettings request to a user's settings: only the fields that are set change.
enum SettingsUpdate {
    /// The new settings.
    /// - Throws: INVALID_ARGUMENT for an unknown time zone or locale, or `min_percent` outside 1...100.
    static func apply(_ request: WireUpdateSettingsRequest, to settings: UserSettings) throws -> UserSettings {
        var result = settings
        if !request.timeZone.isEmpty {
            _ = try Today.timeZone(request.timeZone)
            result.timeZone = request.timeZone
        }
        if !request.locale.isEmpty {
            _ = try LocaleProfile.named(request.locale)
            result.locale = request.locale
        }
        if let weekStart = request.weekStart {
            result.weekStart = weekStart
        }
        if request.clearMinPercent {
            result.minPercent = nil
        }
        if request.minPercent != 0 {
            guard (1...100).contains(request.minPercent) else {
                throw ServiceError.invalidArgument("min_percent \(request.minPercent) is outside 1...100")
            }
            result.minPercent = Int(request.minPercent)
        }
        return result
    }
}
