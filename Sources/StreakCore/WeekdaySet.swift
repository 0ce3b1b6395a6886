/// A non-empty set of weekdays on which a habit is expected, as seven bits (bit 0 = Sunday).
public struct WeekdaySet: Hashable, Sendable, CustomStringConvertible {
    /// Bit `w - 1` is set when weekday `w` (1 = Sunday ... 7 = Saturday) is in the set.
    public let bits: UInt8

    /// Every day of the week: the schedule of a habit that has none.
    public static let everyDay = WeekdaySet(uncheckedBits: 0x7F)

    /// A set of the given weekdays.
    /// - Throws: `CoreError(.invalidArgument)` when `weekdays` is empty.
    public init(_ weekdays: some Sequence<Weekday>) throws(CoreError) {
        var bits: UInt8 = 0
        for weekday in weekdays { bits |= 1 << (weekday.rawValue - 1) }
        guard bits != 0 else { throw CoreError(.invalidArgument, "a schedule needs at least one weekday") }
        self.bits = bits
    }

    /// A set of weekdays numbered like Foundation (1 = Sunday ... 7 = Saturday), as the wire sends them.
    /// - Throws: `CoreError(.invalidArgument)` for an empty list or a number outside 1...7.
    public init(numbers: some Sequence<Int>) throws(CoreError) {
        var weekdays: [Weekday] = []
        for number in numbers {
            guard let weekday = Weekday(rawValue: number) else {
                throw CoreError(.invalidArgument, "weekday \(number) is outside 1 (Sunday)...7 (Saturday)")
            }
            weekdays.append(weekday)
        }
        try self.init(weekdays)
    }

    init(uncheckedBits: UInt8) {
        bits = uncheckedBits
    }

    /// Whether `weekday` is in the set.
    public func contains(_ weekday: Weekday) -> Bool { contains(index: weekday.rawValue - 1) }

    /// Whether the weekday with index `index` (0 = Sunday ... 6 = Saturday) is in the set.
    func contains(index: Int) -> Bool { bits & (1 << index) != 0 }

    /// The weekdays in the set, Sunday first.
    public var weekdays: [Weekday] { Weekday.allCases.filter(contains) }

    /// The Foundation numbers of the weekdays, ascending, e.g. `[2, 4, 6]` for Monday, Wednesday, Friday.
    public var description: String { "\(weekdays.map(\.rawValue))" }
}

extension Weekday {
    /// The weekday index (0 = Sunday ... 6 = Saturday) of a day number.
    static func index(ofDayNumber day: Int) -> Int {
        // 1970-01-01 (day 0) was a Thursday (index 4).
        ((day % 7) + 7 + 4) % 7
    }
}
