import Foundation

/// "Today" as a civil date: an explicit instant in an explicit time zone, never a hidden clock.
public enum Today {
    /// The civil date of `instant` in `timeZone` (Gregorian calendar).
    public static func date(at instant: Date, in timeZone: TimeZone) -> CivilDate {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let parts = calendar.dateComponents([.year, .month, .day], from: instant)
        return (try? CivilDate(year: parts.year ?? 1970, month: parts.month ?? 1, day: parts.day ?? 1)) ?? .min
    }

    /// The time zone named by an IANA identifier.
    /// - Throws: `CoreError(.unknownIdentifier)` when Foundation does not know it.
    public static func timeZone(_ identifier: String) throws(CoreError) -> TimeZone {
        guard let zone = TimeZone(identifier: identifier) else {
            throw CoreError(.unknownIdentifier, "unknown time zone \(identifier)")
        }
        return zone
    }
}
