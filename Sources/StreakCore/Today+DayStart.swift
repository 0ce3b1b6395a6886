import FoundationEssentials

extension Today {
    /// The user's date of `instant`: the date of its wall-clock time in `timeZone` minus
    /// `dayStart` minutes, by wall-clock arithmetic (never "subtract seconds from the instant").
    ///
    /// With a day start of 03:00, 02:30 on March 5 belongs to March 4; across a DST change the
    /// wall clock decides, so on a day whose midnight does not exist (America/Sao_Paulo,
    /// 2018-11-04 began at 01:00) the day still begins when the clock first shows `dayStart` or later.
    public static func date(at instant: Date, in timeZone: TimeZone, dayStart: DayStart) -> CivilDate {
        date(at: instant, offset: timeZone.secondsFromGMT(for: instant), dayStart: dayStart)
    }

    /// The user's date of `instant` in UTC with `dayStart`, without the time zone database.
    public static func utcDate(at instant: Date, dayStart: DayStart) -> CivilDate {
        date(at: instant, offset: 0, dayStart: dayStart)
    }

    /// The user's date of `instant` on a wall clock `offset` seconds ahead of UTC (the zone's
    /// offset at that instant), with `dayStart`.
    public static func date(at instant: Date, offset: Int, dayStart: DayStart) -> CivilDate {
        wallClockDate(wallClock(at: instant, offset: offset), dayStart: dayStart)
    }

    /// The date a wall clock shows, or the one before while it shows less than `dayStart`
    /// (at most 12 hours, so never earlier than that).
    private static func wallClockDate(_ clock: (date: CivilDate, secondsOfDay: Double), dayStart: DayStart) -> CivilDate
    {
        guard clock.secondsOfDay < Double(dayStart.minutes * 60) else { return clock.date }
        return (try? clock.date.adding(days: -1)) ?? clock.date
    }
}
