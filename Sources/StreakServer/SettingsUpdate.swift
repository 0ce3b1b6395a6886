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
            guard TimeZone(identifier: request.timeZone) != nil else {
                throw ServiceError.invalidArgument("unknown time zone '\(request.timeZone.prefix(100))'")
            }
            result.timeZone = request.timeZone
        }
        if !request.locale.isEmpty {
            guard LocaleValidation.isKnown(request.locale) else {
                throw ServiceError.invalidArgument("unknown locale '\(request.locale.prefix(100))'")
            }
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

/// Which locale identifiers Foundation knows (it accepts any string in `Locale(identifier:)`).
enum LocaleValidation {
    private static let known: Set<String> = Set(Locale.availableIdentifiers.map(normalize))

    /// Whether `identifier` (`en_US` or `en-US`) names a locale Foundation has data for.
    static func isKnown(_ identifier: String) -> Bool {
        known.contains(normalize(identifier))
    }

    private static func normalize(_ identifier: String) -> String {
        identifier.replacingOccurrences(of: "-", with: "_").lowercased()
    }
}
