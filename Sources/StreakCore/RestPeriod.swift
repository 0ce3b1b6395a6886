/// An inclusive range of days (a vacation, an illness) on which no habit of the user is expected.
public struct RestPeriod: Hashable, Sendable, CustomStringConvertible {
    /// The first day of rest.
    public let from: CivilDate
    /// The last day of rest (inclusive).
    public let to: CivilDate

    /// The most days a rest period may span: the heatmap's 20-year limit.
    public static let maximumDays = HeatmapOptions.maximumDays

    /// A rest period from `from` through `to`.
    /// - Throws: `CoreError(.invalidArgument)` when `to` is before `from` or the period spans more
    ///   than `maximumDays` days.
    public init(from: CivilDate, to: CivilDate) throws(CoreError) {
        guard from <= to else {
            throw CoreError(.invalidArgument, "a rest period ends (\(to)) before it starts (\(from))")
        }
        guard from.days(to: to) < Self.maximumDays else {
            throw CoreError(
                .invalidArgument,
                "a rest period spans at most \(Self.maximumDays) days, about 20 years"
                    + " (\(from) to \(to) is \(from.days(to: to) + 1) days)"
            )
        }
        self.from = from
        self.to = to
    }

    /// Whether `date` is in the period.
    public func contains(_ date: CivilDate) -> Bool { from <= date && date <= to }

    /// `FROM..TO`, e.g. `2024-03-04..2024-03-08`.
    public var description: String { "\(from)..\(to)" }
}
