/// A user's stored rest period: its identifier, its days and an optional note.
public struct RestPeriodRecord: Hashable, Sendable, Identifiable {
    /// Assigned by the store; names the period for removal.
    public var id: Int64
    /// The days of rest.
    public var period: RestPeriod
    /// Why (a vacation, an illness); may be empty.
    public var note: String

    /// The longest note, in Unicode scalars (`TextLength`).
    public static let maximumNoteLength = TextLength.maximum

    /// Creates a record.
    public init(id: Int64, period: RestPeriod, note: String) {
        self.id = id
        self.period = period
        self.note = note
    }
}

extension RestPeriodRecord: Comparable {
    /// Ascending by first day, then id: the order in which rest periods are listed.
    public static func < (lhs: RestPeriodRecord, rhs: RestPeriodRecord) -> Bool {
        (lhs.period.from, lhs.id) < (rhs.period.from, rhs.id)
    }
}
