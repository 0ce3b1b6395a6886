/// A day of the week, numbered like Foundation: 1 = Sunday ... 7 = Saturday.
public enum Weekday: Int, CaseIterable, Hashable, Sendable {
    case sunday = 1
    case monday = 2
    case tuesday = 3
    case wednesday = 4
    case thursday = 5
    case friday = 6
    case saturday = 7

    /// The seven weekdays in order, starting at `first`.
    public static func ordered(startingAt first: Weekday) -> [Weekday] {
        (0..<7).map { Weekday(rawValue: (first.rawValue - 1 + $0) % 7 + 1)! }
    }

    /// How many days `self` lies after `first` in a week that starts at `first` (0...6).
    public func offset(from first: Weekday) -> Int {
        (rawValue - first.rawValue + 7) % 7
    }
}
