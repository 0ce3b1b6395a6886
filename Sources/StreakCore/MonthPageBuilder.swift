/// A year and a month, validated.
public struct YearMonth: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// 1...9999.
    public let year: Int
    /// 1...12.
    public let month: Int

    /// Creates a year-month. - Throws: `CoreError(.invalidArgument)` outside 0001-01...9999-12.
    public init(year: Int, month: Int) throws(CoreError) {
        guard (1...9999).contains(year), (1...12).contains(month) else {
            throw CoreError(.invalidArgument, "no month \(year)-\(month); expected year 1...9999 and month 1...12")
        }
        self.year = year
        self.month = month
    }

    /// The month holding `date`.
    public init(_ date: CivilDate) {
        year = date.year
        month = date.month
    }

    /// The month before, wrapping the year (2025-01 -> 2024-12); nil before 0001-01.
    public var previous: YearMonth? {
        try? month == 1 ? YearMonth(year: year - 1, month: 12) : YearMonth(year: year, month: month - 1)
    }
    /// The month after, wrapping the year (2024-12 -> 2025-01); nil after 9999-12.
    public var next: YearMonth? {
        try? month == 12 ? YearMonth(year: year + 1, month: 1) : YearMonth(year: year, month: month + 1)
    }
    /// The 1st of the month.
    public var firstDay: CivilDate {
        CivilDate(validDayNumber: (try? CivilDate(year: year, month: month, day: 1))?.dayNumber ?? 0)
    }

    /// Chronological order.
    public static func < (lhs: YearMonth, rhs: YearMonth) -> Bool { (lhs.year, lhs.month) < (rhs.year, rhs.month) }
    /// `YYYY-MM`.
    public var description: String { String(year).leftPadded(to: 4) + "-" + String(month).leftPadded(to: 2) }
}

/// What a month page shows.
public struct MonthPageOptions: Hashable, Sendable {
    /// The first weekday of each row.
    public var weekStart: Weekday
    /// The locale of the title and weekday names.
    public var locale: LocaleProfile
    /// "Today", marked on the page when visible.
    public var today: CivilDate?
    /// A day the caller selected.
    public var selected: CivilDate?
    /// Days to highlight (stateful: the contributing days; stateless: the caller's list).
    public var highlighted: Set<CivilDate>
    /// The level of each day, when known.
    public var levels: [CivilDate: IntensityLevel]
    /// The rest days (every active habit excused), marked on the page.
    public var restDays: Set<CivilDate>

    /// Creates options.
    public init(
        weekStart: Weekday,
        locale: LocaleProfile = .english,
        today: CivilDate? = nil,
        selected: CivilDate? = nil,
        highlighted: Set<CivilDate> = [],
        levels: [CivilDate: IntensityLevel] = [:],
        restDays: Set<CivilDate> = []
    ) {
        self.restDays = restDays
        self.weekStart = weekStart
        self.locale = locale
        self.today = today
        self.selected = selected
        self.highlighted = highlighted
        self.levels = levels
    }
}

/// A 42-day month page: six rows of seven days.
public struct MonthPage: Hashable, Sendable {
    /// The month shown.
    public var month: YearMonth
    /// E.g. "February 2024".
    public var title: String
    /// Seven short weekday names in row order.
    public var weekdaySymbols: [String]
    /// The first weekday of each row.
    public var weekStart: Weekday
    /// Exactly 42 days: trailing days of the previous month, the month, leading days of the next.
    public var days: [MonthPageDay]
    /// Navigation: the previous month (year wraps), nil before 0001-01.
    public var previous: YearMonth?
    /// Navigation: the next month (year wraps), nil after 9999-12.
    public var next: YearMonth?
}

/// One day of a month page.
public struct MonthPageDay: Hashable, Sendable {
    /// The date.
    public var date: CivilDate
    /// Its day number, 1...31.
    public var day: Int { date.day }
    /// Whether it belongs to the page's month.
    public var inMonth: Bool
    /// Whether it is today.
    public var isToday: Bool
    /// Whether the caller selected it.
    public var isSelected: Bool
    /// Whether it is highlighted.
    public var isHighlighted: Bool
    /// Its intensity level.
    public var level: IntensityLevel
    /// Whether it is a rest day (every active habit excused).
    public var isRestDay: Bool
}

/// Builds month pages.
public enum MonthPageBuilder {
    /// The page of `month`: no leading days when the 1st falls on the first weekday.
    /// - Throws: `CoreError(.invalidArgument)` when the 42 days would reach outside
    ///   0001-01-01...9999-12-31: always for 9999-12, and for 0001-01 unless weeks start on
    ///   Monday (0001-01-01 is a Monday). A page is always 42 real days, never padded.
    public static func build(_ month: YearMonth, options: MonthPageOptions) throws(CoreError) -> MonthPage {
        let first = month.firstDay
        let start = first.dayNumber - first.weekday.offset(from: options.weekStart)
        guard start >= CivilDate.min.dayNumber else {
            throw CoreError(
                .invalidArgument,
                "the page of \(month) starting on \(options.weekStart) would show days before 0001-01-01"
            )
        }
        guard start + 41 <= CivilDate.max.dayNumber else {
            throw CoreError(.invalidArgument, "the page of \(month) would show days after 9999-12-31")
        }
        let days = (start..<(start + 42)).map { number -> MonthPageDay in
            let date = CivilDate(validDayNumber: number)
            return MonthPageDay(
                date: date,
                inMonth: date.year == month.year && date.month == month.month,
                isToday: date == options.today,
                isSelected: date == options.selected,
                isHighlighted: options.highlighted.contains(date),
                level: options.levels[date] ?? .none,
                isRestDay: !options.restDays.isEmpty && options.restDays.contains(date)
            )
        }
        return MonthPage(
            month: month,
            title: options.locale.yearMonthTitle(year: month.year, month: month.month),
            weekdaySymbols: Weekday.ordered(startingAt: options.weekStart).map(options.locale.shortName(of:)),
            weekStart: options.weekStart,
            days: days,
            previous: month.previous,
            next: month.next
        )
    }
}
