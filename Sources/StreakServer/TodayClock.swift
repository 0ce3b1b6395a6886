import FoundationEssentials
import StreakCore

/// "Today" in a time zone, recomputed only when the wall clock leaves the cached day.
///
/// A cached date holds while the zone's offset from UTC stays what it was when the date was
/// computed, until the wall clock shows the day start on the next date: under one offset the
/// user's date only moves forward, at that instant. The zone's next offset change (a DST change,
/// or a change of its standard offset) ends the cached date early, because the rule is wall-clock
/// arithmetic and a change can move the user's date either way: after America/New_York falls
/// back at 02:00, a day that starts at 01:30 is the previous date again for half an hour, and a
/// zone that skipped a whole date (Pacific/Apia, 2011-12-30) moves on by two.
///
/// UTC (the default zone) is pure arithmetic; other zones ask Foundation's time zone database
/// once per day (and once per offset change) and zone.
struct TodayClock: Sendable {
    private var identifier: String = ""
    private var cachedDayStart = DayStart.midnight
    private var start: Double = 0
    private var end: Double = -1
    private var cached: CivilDate = .min

    init() {}

    /// Today's civil date in the IANA zone `timeZone` (UTC when it is unknown) at `now`, for a day
    /// that begins `dayStart` after midnight (wall-clock arithmetic: see `Today.date(at:in:dayStart:)`).
    mutating func today(in timeZone: String, dayStart: DayStart, now: Date) -> CivilDate {
        let seconds = now.timeIntervalSince1970
        if timeZone == identifier, dayStart == cachedDayStart, seconds >= start, seconds < end { return cached }
        let offset: Int
        let nextChange: Double
        if Today.utcIdentifiers.contains(timeZone) {
            offset = 0
            nextChange = .infinity
        } else {
            let zone = TimeZone(identifier: timeZone) ?? TimeZone(identifier: "UTC")!
            offset = zone.secondsFromGMT(for: now)
            nextChange = zone.nextDaylightSavingTimeTransition(after: now)?.timeIntervalSince1970 ?? .infinity
        }
        let date = Today.date(at: now, offset: offset, dayStart: dayStart)
        // Under this offset, the next date begins when the wall clock shows the day start on it.
        let nextDate = Double(date.dayNumber + 1) * 86_400 + Double(dayStart.minutes * 60) - Double(offset)
        identifier = timeZone
        cachedDayStart = dayStart
        cached = date
        start = seconds
        end = min(nextDate, nextChange)
        return date
    }

    /// Today's civil date in the IANA zone `timeZone` (UTC when it is unknown) at `now`, for a day
    /// that begins at midnight.
    mutating func today(in timeZone: String, now: Date) -> CivilDate {
        today(in: timeZone, dayStart: .midnight, now: now)
    }
}
