import Foundation
public import StreakCore

/// A day as a person types it: `today`, `yesterday`, `-3` (three days ago), a weekday name
/// (`monday`, `mon`: the most recent one, today included) or an ISO date (`2025-06-14`).
///
/// Relative forms resolve against a "today" given by the caller (the user's day in their own
/// time zone and day start, or `--as-of`), never against the machine's clock.
public enum DateExpression: Hashable, Sendable {
    /// A calendar date, as written.
    case absolute(CivilDate)
    /// So many days before today (0 is today, 1 yesterday).
    case daysAgo(Int)
    /// The most recent day with this weekday, today included.
    case weekday(Weekday)

    /// The longest look-back `-N` accepts: 20 years.
    public static let maximumDaysAgo = 7_320

    /// Parses what a person typed.
    /// - Throws: `CoreError(.invalidDate)` naming the accepted forms, for anything else.
    public init(parsing text: String) throws(CoreError) {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        let lowered = trimmed.lowercased()
        switch lowered {
        case "today": self = .daysAgo(0)
        case "yesterday": self = .daysAgo(1)
        case _ where lowered.first == "-" && lowered.dropFirst().allSatisfy(\.isASCIIDigit) && lowered.count > 1:
            guard let days = Int(lowered.dropFirst()), days <= Self.maximumDaysAgo else {
                throw CoreError(.invalidDate, "'\(text)' goes back more than \(Self.maximumDaysAgo) days")
            }
            self = .daysAgo(days)
        case _ where lowered.first?.isLetter == true:
            guard let weekday = WeekdayNames.weekday(named: lowered) else {
                throw CoreError(.invalidDate, "'\(text)' is not a date; \(Self.accepted)")
            }
            self = .weekday(weekday)
        default:
            do {
                self = .absolute(try CivilDate(parsing: trimmed))
            } catch {
                throw CoreError(.invalidDate, "\(error.message); \(Self.accepted)")
            }
        }
    }

    /// The forms `init(parsing:)` takes, for error messages and help.
    public static let accepted = "use YYYY-MM-DD, today, yesterday, -N (N days ago) or a weekday (monday)"

    /// Whether the expression depends on today (everything but an ISO date).
    public var isRelative: Bool {
        if case .absolute = self { return false }
        return true
    }

    /// The date meant, with `today` as today.
    /// - Throws: `CoreError(.invalidDate)` when the result would be before 0001-01-01, naming the
    ///   form and the limit: "yesterday is before 0001-01-01, the first date there is".
    public func resolve(today: CivilDate) throws(CoreError) -> CivilDate {
        let back: Int
        switch self {
        case .absolute(let date):
            return date
        case .daysAgo(let days):
            back = days
        case .weekday(let weekday):
            back = (today.weekday.rawValue - weekday.rawValue + 7) % 7
        }
        guard today.dayNumber - back >= CivilDate.min.dayNumber, let date = try? today.adding(days: -back) else {
            throw CoreError(
                .invalidDate,
                "\(spelled) is before \(CivilDate.min), the first date there is (today counts as \(today))"
            )
        }
        return date
    }

    /// The expression as a person would type it: `yesterday`, `-3`, `monday`, `2025-06-14`.
    var spelled: String {
        switch self {
        case .absolute(let date): "\(date)"
        case .daysAgo(0): "today"
        case .daysAgo(1): "yesterday"
        case .daysAgo(let days): "-\(days) (\(days) days ago)"
        case .weekday(let weekday): "the last \(WeekdayNames.name(weekday))"
        }
    }
}

extension Character {
    fileprivate var isASCIIDigit: Bool { isASCII && isNumber }
}
