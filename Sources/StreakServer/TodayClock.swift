import FoundationEssentials
import StreakCore

/// "Today" in a time zone, recomputed only when the wall clock leaves the cached day.
///
/// UTC (the default zone) is pure arithmetic; other zones go through Foundation's calendar
/// and time zone database once per day and zone.
struct TodayClock: Sendable {
    private var identifier: String = ""
    private var start: Double = 0
    private var end: Double = -1
    private var cached: CivilDate = .min

    init() {}

    private var cachedDayStart = DayStart.midnight

    /// Today's civil date in the IANA zone `timeZone` (UTC when it is unknown) at `now`, for a day
    /// that begins `dayStart` after midnight (wall-clock arithmetic: see `Today.date(at:in:dayStart:)`).
    mutating func today(in timeZone: String, dayStart: DayStart, now: Date) -> CivilDate {
        guard dayStart != .midnight else { return today(in: timeZone, now: now) }
        let seconds = now.timeIntervalSince1970
        if timeZone == identifier, dayStart == cachedDayStart, seconds >= start, seconds < end { return cached }
        let shift = Double(dayStart.minutes * 60)
        if Today.utcIdentifiers.contains(timeZone) {
            let date = Today.utcDate(at: now, dayStart: dayStart)
            remember(date, timeZone, dayStart, from: Double(date.dayNumber) * 86_400 + shift, to: nil)
            return date
        }
        let zone = TimeZone(identifier: timeZone) ?? TimeZone(identifier: "UTC")!
        let date = Today.date(at: now, in: zone, dayStart: dayStart)
        // The next day begins when the wall clock shows dayStart on the next date. A DST change moves
        // that instant by at most two hours, so the cached date is trusted until two hours before
        // the naive boundary and recomputed on every call after that.
        let naiveNextStart = Double(date.dayNumber + 1) * 86_400 + shift - Double(zone.secondsFromGMT(for: now))
        remember(date, timeZone, dayStart, from: seconds, to: naiveNextStart - 7_200)
        return date
    }

    private mutating func remember(
        _ date: CivilDate,
        _ timeZone: String,
        _ dayStart: DayStart,
        from start: Double,
        to end: Double?
    ) {
        identifier = timeZone
        cachedDayStart = dayStart
        cached = date
        self.start = start
        self.end = end ?? start + 86_400
    }

    /// Today's civil date in the IANA zone `timeZone` (UTC when it is unknown) at `now`, for a day
    /// that begins at midnight.
    mutating func today(in timeZone: String, now: Date) -> CivilDate {
        if cachedDayStart != .midnight {
            cachedDayStart = .midnight
            end = -1
        }
        let seconds = now.timeIntervalSince1970
        if timeZone == identifier, seconds >= start, seconds < end { return cached }
        if Today.utcIdentifiers.contains(timeZone) {
            let date = Today.utcDate(at: now)
            identifier = timeZone
            start = Double(date.dayNumber) * 86_400
            end = start + 86_400
            cached = date
            return date
        }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: timeZone) ?? TimeZone(identifier: "UTC")!
        let date = Today.date(at: now, in: calendar.timeZone)
        let dayStart = calendar.startOfDay(for: now)
        // The next day's start, not "dayStart + 1 day": a day that began late because its
        // midnight did not exist (America/Sao_Paulo, 2018-11-04 began at 01:00) still ends at midnight.
        let dayEnd = calendar.date(byAdding: .day, value: 1, to: dayStart).map(calendar.startOfDay(for:)) ?? dayStart
        identifier = timeZone
        start = dayStart.timeIntervalSince1970
        end = dayEnd.timeIntervalSince1970
        cached = date
        return date
    }
}
