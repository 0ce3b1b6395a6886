/// When a user's day begins: minutes after midnight, 0...720 (up to noon); 0 by default.
///
/// With 180 (03:00), 02:30 on March 5 still belongs to March 4: the date of an instant is the date
/// of its wall-clock time minus these minutes (see `Today.date(at:in:dayStart:)`).
public struct DayStart: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// Minutes after midnight, 0...720.
    public let minutes: Int

    /// Midnight: the default.
    public static let midnight = DayStart(uncheckedMinutes: 0)

    /// The latest allowed start, in minutes (noon).
    public static let maximumMinutes = 720

    /// A day start.
    /// - Throws: `CoreError(.invalidArgument)` outside 0...720.
    public init(minutes: Int) throws(CoreError) {
        guard (0...Self.maximumMinutes).contains(minutes) else {
            throw CoreError(.invalidArgument, "day_start must be 0...720 minutes, got \(minutes)")
        }
        self.minutes = minutes
    }

    private init(uncheckedMinutes: Int) {
        minutes = uncheckedMinutes
    }

    /// Earlier starts first.
    public static func < (lhs: DayStart, rhs: DayStart) -> Bool { lhs.minutes < rhs.minutes }

    /// `HH:MM`, e.g. `03:00`.
    public var description: String {
        let hours = minutes / 60
        let rest = minutes % 60
        return "\(hours < 10 ? "0" : "")\(hours):\(rest < 10 ? "0" : "")\(rest)"
    }
}
