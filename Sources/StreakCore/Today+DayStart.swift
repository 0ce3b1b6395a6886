import FoundationEssentials

extension Today {
    /// The user's date of `instant`: the date of its wall-clock time in `timeZone` minus
    /// `dayStart` minutes, by wall-clock arithmetic (never "subtract seconds from the instant").
    ///
    /// With a day start of 03:00, 02:30 on March 5 belongs to March 4; across a DST change the
    /// wall clock decides, so on a day whose midnight does not exist (America/Sao_Paulo,
    /// 2018-11-04 began at 01:00) the day still begins when the clock first shows `dayStart` or later.
    public static func date(at instant: Date, in timeZone: TimeZone, dayStart: DayStart) -> CivilDate {
        guard dayStart.minutes > 0 else { return date(at: instant, in: timeZone) }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: instant)
        let wallDate =
            (try? CivilDate(year: parts.year ?? 1970, month: parts.month ?? 1, day: parts.day ?? 1)) ?? .min
        let secondsOfDay = (parts.hour ?? 0) * 3600 + (parts.minute ?? 0) * 60 + (parts.second ?? 0)
        // dayStart is at most 12 hours, so the wall clock minus it is the same date or the one before.
        guard secondsOfDay < dayStart.minutes * 60 else { return wallDate }
        return (try? wallDate.adding(days: -1)) ?? wallDate
    }

    /// The user's date of `instant` in UTC with `dayStart`, by arithmetic alone (in UTC the wall
    /// clock is the instant); nil where `utcDate(at:)` is nil.
    public static func utcDate(at instant: Date, dayStart: DayStart) -> CivilDate? {
        utcDate(at: instant.addingTimeInterval(-Double(dayStart.minutes * 60)))
    }
}
