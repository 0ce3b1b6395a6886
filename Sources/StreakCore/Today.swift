import FoundationEssentials
import FoundationInternationalization

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

    /// The identifiers that name UTC itself, for which `utcDayNumber(at:)` is exact.
    public static let utcIdentifiers: Set<String> = ["UTC", "GMT", "Etc/UTC", "Etc/GMT"]

    /// The day number (days since 1970-01-01) of `instant` in UTC, by arithmetic alone.
    ///
    /// Equal to `date(at:in:)` with a UTC zone, without touching the time zone database
    /// (whose pages would otherwise stay resident in the server for good).
    public static func utcDayNumber(at instant: Date) -> Int {
        Int((instant.timeIntervalSince1970 / 86_400).rounded(.down))
    }

    /// The first day of the Gregorian calendar proper (1582-10-15): Foundation's Gregorian calendar
    /// is Julian before it, while `CivilDate` is proleptic Gregorian.
    public static let gregorianCutoverDayNumber = -141_427

    /// The civil date of `instant` in UTC, by arithmetic alone; nil before the Gregorian cutover
    /// (1582-10-15) or after 9999-12-31, where only `date(at:in:)` gives Foundation's answer.
    public static func utcDate(at instant: Date) -> CivilDate? {
        let day = utcDayNumber(at: instant)
        guard day >= gregorianCutoverDayNumber else { return nil }
        return try? CivilDate(dayNumber: day)
    }
}
