public import StreakCore

/// The proto enum `streak.v1.Weekday`: 1 = Sunday ... 7 = Saturday (Foundation's numbering), 0 = not given.
///
/// Message fields of this type are `StreakCore.Weekday?` (0 = nil); this enum exists for code that
/// wants the raw proto values.
public enum WireWeekday: Int32, CaseIterable, Hashable, Sendable {
    /// `WEEKDAY_UNSPECIFIED`: not given.
    case unspecified = 0
    /// `WEEKDAY_SUNDAY`.
    case sunday = 1
    /// `WEEKDAY_MONDAY`.
    case monday = 2
    /// `WEEKDAY_TUESDAY`.
    case tuesday = 3
    /// `WEEKDAY_WEDNESDAY`.
    case wednesday = 4
    /// `WEEKDAY_THURSDAY`.
    case thursday = 5
    /// `WEEKDAY_FRIDAY`.
    case friday = 6
    /// `WEEKDAY_SATURDAY`.
    case saturday = 7

    /// The proto value of a weekday; nil gives `.unspecified`.
    public init(_ weekday: Weekday?) {
        self = weekday.map { WireWeekday(rawValue: Int32($0.rawValue))! } ?? .unspecified
    }

    /// The weekday, or nil for `.unspecified`.
    public var weekday: Weekday? {
        Weekday(rawValue: Int(rawValue))
    }
}
