/// One habit done on one day.
public struct Completion: Hashable, Sendable {
    /// The habit's identifier.
    public var habitID: Int64
    /// The day it was done.
    public var date: CivilDate

    /// Creates a completion.
    public init(habitID: Int64, date: CivilDate) {
        self.habitID = habitID
        self.date = date
    }
}
