import Foundation
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

    /// Today's civil date in the IANA zone `timeZone` (UTC when it is unknown) at `now`.
    mutating func today(in timeZone: String, now: Date) -> CivilDate {
        let seconds = now.timeIntervalSince1970
        if timeZone == identifier, seconds >= start, seconds < end { return cached }
        if Today.utcIdentifiers.contains(timeZone), let date = Today.utcDate(at: now) {
            identifier = timeZone
            start = Double(date.dayNumber) * 86_400
            end = start + 86_400
            cached = date
            return date
        }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: timeZone) ?? TimeZone(identifier: "UTC")!
        let parts = calendar.dateComponents([.year, .month, .day], from: now)
        let date = (try? CivilDate(year: parts.year ?? 1970, month: parts.month ?? 1, day: parts.day ?? 1)) ?? .min
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
