import FoundationEssentials
import FoundationInternationalization

/// "Today" as a civil date: an explicit instant in an explicit time zone, never a hidden clock.
public enum Today {
    /// The civil date of `instant` in `timeZone`: the wall clock there (the instant plus the zone's
    /// offset from UTC at that instant, a DST change included), counted in days by arithmetic on
    /// the proleptic Gregorian calendar (Foundation's Gregorian calendar turns Julian before
    /// 1582-10-15) and held to 0001-01-01...9999-12-31 (a clock past the end stays on 9999-12-31).
    public static func date(at instant: Date, in timeZone: TimeZone) -> CivilDate {
        wallClock(at: instant, offset: timeZone.secondsFromGMT(for: instant)).date
    }

    /// The wall clock `offset` seconds from UTC at `instant`: its date (held to the calendar's
    /// range) and the seconds since that date's midnight.
    static func wallClock(at instant: Date, offset: Int) -> (date: CivilDate, secondsOfDay: Double) {
        let seconds = instant.timeIntervalSince1970 + Double(offset)
        let day = (seconds / 86_400).rounded(.down)
        guard day >= Double(CivilDate.min.dayNumber) else { return (.min, 0) }
        guard day <= Double(CivilDate.max.dayNumber) else { return (.max, 86_399) }
        return (CivilDate(validDayNumber: Int(day)), seconds - day * 86_400)
    }

    /// The time zone named by an IANA identifier.
    /// - Throws: `CoreError(.unknownIdentifier)` when Foundation does not know it, or when it is
    ///   an offset rather than a name (`GMT+5`, `UTC-03:00`): Foundation reads those with the
    ///   opposite sign to IANA's own `Etc/GMT+5` (five hours behind UTC), so two spellings that
    ///   look alike would put a user's day ten hours apart. `GMT+0` and `GMT-0` are IANA's own
    ///   names for UTC and are accepted.
    public static func timeZone(_ identifier: String) throws(CoreError) -> TimeZone {
        for prefix in ["GMT", "UTC"]
        where (identifier.hasPrefix(prefix + "+") || identifier.hasPrefix(prefix + "-"))
            && !ianaZeroOffsets.contains(identifier)
        {
            throw CoreError(
                .unknownIdentifier,
                "unknown time zone \(identifier): an offset is not an IANA name; give a region's zone "
                    + "(Asia/Karachi) or Etc/GMT-5 for UTC+5 (IANA's Etc/GMT signs are inverted)"
            )
        }
        guard let zone = TimeZone(identifier: identifier) else {
            // IANA names are case-sensitive; one that differs only in case is surely the one meant.
            let lowered = identifier.lowercased()
            let meant = TimeZone.knownTimeZoneIdentifiers.first { $0.lowercased() == lowered }
            throw CoreError(
                .unknownIdentifier,
                "unknown time zone \(identifier)" + (meant.map { " (did you mean \($0)?)" } ?? "")
            )
        }
        return zone
    }

    /// IANA links to UTC that are spelled like offsets.
    static let ianaZeroOffsets: Set<String> = ["GMT+0", "GMT-0"]

    /// The identifiers that name UTC itself, for which `utcDayNumber(at:)` is exact.
    public static let utcIdentifiers: Set<String> = ["UTC", "GMT", "Etc/UTC", "Etc/GMT"]

    /// The day number (days since 1970-01-01) of `instant` in UTC, by arithmetic alone.
    ///
    /// Equal to `date(at:in:)` with a UTC zone, without touching the time zone database
    /// (whose pages would otherwise stay resident in the server for good).
    public static func utcDayNumber(at instant: Date) -> Int {
        Int((instant.timeIntervalSince1970 / 86_400).rounded(.down))
    }

    /// The civil date of `instant` in UTC: `date(at:in:)` without touching the time zone database.
    public static func utcDate(at instant: Date) -> CivilDate {
        wallClock(at: instant, offset: 0).date
    }
}
