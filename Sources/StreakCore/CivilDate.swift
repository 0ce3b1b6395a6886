import FoundationEssentials

/// A day in the proleptic Gregorian calendar: year, month and day, with no time and no zone.
///
/// Every value is valid: the initializer rejects 2024-02-30, month 13, day 0 and years
/// outside 1...9999 instead of normalising them the way `Calendar.date(from:)` does.
/// Day arithmetic is civil arithmetic on a day number, never "add 86,400 seconds".
public struct CivilDate: Hashable, Comparable, Sendable {
    /// The year, 1...9999.
    public let year: Int
    /// The month, 1...12.
    public let month: Int
    /// The day of the month, 1...28/29/30/31.
    public let day: Int

    /// The smallest supported date, 0001-01-01.
    public static let min = CivilDate(unchecked: 1, 1, 1)
    /// The largest supported date, 9999-12-31.
    public static let max = CivilDate(unchecked: 9999, 12, 31)

    /// Creates a validated date.
    /// - Throws: `CoreError` with code `.invalidDate` when the components do not name a real day.
    public init(year: Int, month: Int, day: Int) throws(CoreError) {
        guard (1...9999).contains(year) else {
            throw CoreError(.invalidDate, "year \(year) is outside 1...9999")
        }
        guard (1...12).contains(month) else {
            throw CoreError(.invalidDate, "month \(month) is outside 1...12")
        }
        let length = CivilDate.daysInMonth(year: year, month: month)
        guard (1...length).contains(day) else {
            throw CoreError(
                .invalidDate,
                "\(CivilDate.format(year, month, day)) does not exist: \(CivilDate.format(year, month)) has \(length) days"
            )
        }
        self.init(unchecked: year, month, day)
    }

    /// Parses `YYYY-MM-DD` strictly (four-digit year, two-digit month and day).
    /// - Throws: `CoreError(.invalidDate)` for any other shape or an impossible date.
    public init(parsing text: String) throws(CoreError) {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
            parts.allSatisfy({ $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }),
            let y = Int(parts[0]), let m = Int(parts[1]), let d = Int(parts[2])
        else {
            throw CoreError(.invalidDate, "'\(text)' is not a date in the form YYYY-MM-DD")
        }
        try self.init(year: y, month: m, day: d)
    }

    /// Creates a date from components the caller has already validated.
    init(unchecked year: Int, _ month: Int, _ day: Int) {
        self.year = year
        self.month = month
        self.day = day
    }

    /// Whether `year` is a Gregorian leap year.
    public static func isLeapYear(_ year: Int) -> Bool {
        (year % 4 == 0 && year % 100 != 0) || year % 400 == 0
    }

    /// The number of days in a month of a year (28...31).
    public static func daysInMonth(year: Int, month: Int) -> Int {
        switch month {
        case 2: return isLeapYear(year) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// Chronological order.
    public static func < (lhs: CivilDate, rhs: CivilDate) -> Bool {
        (lhs.year, lhs.month, lhs.day) < (rhs.year, rhs.month, rhs.day)
    }

    static func format(_ year: Int, _ month: Int, _ day: Int? = nil) -> String {
        let y = String(year).leftPadded(to: 4)
        let m = String(month).leftPadded(to: 2)
        guard let day else { return "\(y)-\(m)" }
        return "\(y)-\(m)-\(String(day).leftPadded(to: 2))"
    }
}

extension CivilDate: CustomStringConvertible {
    /// The ISO 8601 form, `YYYY-MM-DD`.
    public var description: String { CivilDate.format(year, month, day) }
}

extension CivilDate {
    /// Days since 1970-01-01 (negative before it), by Howard Hinnant's civil algorithm.
    public var dayNumber: Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let mp = (month + 9) % 12
        let doy = (153 * mp + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    /// The date with the given day number.
    /// - Throws: `CoreError(.invalidDate)` when it falls outside 0001-01-01...9999-12-31.
    public init(dayNumber: Int) throws(CoreError) {
        guard (CivilDate.min.dayNumber...CivilDate.max.dayNumber).contains(dayNumber) else {
            throw CoreError(.invalidDate, "day number \(dayNumber) is outside 0001-01-01...9999-12-31")
        }
        let z = dayNumber + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        self.init(unchecked: yoe + era * 400 + (m <= 2 ? 1 : 0), m, d)
    }

    /// The date `days` days later (earlier when negative).
    /// - Throws: `CoreError(.invalidDate)` when the result leaves the supported range.
    public func adding(days: Int) throws(CoreError) -> CivilDate {
        try CivilDate(dayNumber: dayNumber + days)
    }

    /// The number of days from `self` to `other` (positive when `other` is later).
    public func days(to other: CivilDate) -> Int { other.dayNumber - dayNumber }

    /// The day of the week.
    public var weekday: Weekday {
        // 1970-01-01 was a Thursday (Foundation number 5).
        let index = ((dayNumber % 7) + 7 + 4) % 7  // 0 = Sunday
        return Weekday(rawValue: index + 1)!
    }

    /// The first day of this date's month.
    public var firstOfMonth: CivilDate { CivilDate(unchecked: year, month, 1) }
}

extension String {
    /// The text with zeros in front up to `width` characters (`7` → `07`).
    func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
