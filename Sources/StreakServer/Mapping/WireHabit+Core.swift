import StreakCore
import StreakWire

extension WireHabit {
    /// The wire form of a habit.
    init(_ habit: Habit) {
        self.init()
        id = habit.id
        name = habit.name
        createdOn = habit.createdOn
        archivedOn = habit.archivedOn
    }
}

extension Habit {
    /// A habit a stateless request carries.
    /// - Throws: INVALID_ARGUMENT when the id is not positive, `created_on` is missing or
    ///   `archived_on` is before `created_on` (the message names the habit id and both dates).
    init(_ wire: WireHabit) throws {
        guard wire.id > 0 else { throw ServiceError.invalidArgument("habit ids must be positive") }
        guard let createdOn = wire.createdOn else {
            throw ServiceError.invalidArgument("habit \(wire.id) has no created_on")
        }
        do {
            self = try Habit(id: wire.id, name: wire.name, createdOn: createdOn, archivedOn: wire.archivedOn)
        } catch {
            throw ServiceError.invalidArgument(error.message)
        }
    }
}

extension Completion {
    /// A completion a request carries.
    /// - Throws: INVALID_ARGUMENT when the date is missing.
    init(_ wire: WireCompletion) throws {
        guard let date = wire.date else { throw ServiceError.invalidArgument("a completion needs a date") }
        self.init(habitID: wire.habitId, date: date)
    }
}
