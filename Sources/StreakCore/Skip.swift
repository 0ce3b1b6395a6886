/// One habit excused on one day: it neither rewards nor punishes.
public struct Skip: Hashable, Sendable {
    /// The habit's identifier.
    public var habitID: Int64
    /// The day it is excused.
    public var date: CivilDate

    /// Creates a skip.
    public init(habitID: Int64, date: CivilDate) {
        self.habitID = habitID
        self.date = date
    }
}
