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
        schedule = habit.schedule.entries.map { entry in
            WireScheduleEntry(effectiveFrom: entry.effectiveFrom, weekdays: entry.weekdays.weekdays)
        }
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
            throw ServiceError.invalidArgument(error.message, cause: error)
        }
        var schedule = HabitSchedule.everyDay
        for entry in wire.schedule {
            guard let from = entry.effectiveFrom else {
                throw ServiceError.invalidArgument("habit \(wire.id): a schedule entry needs effective_from")
            }
            schedule.set(try WeekdaySet(wire: entry.weekdays, field: "schedule"), from: from)
        }
        self.schedule = schedule
    }
}

extension WeekdaySet {
    /// The weekdays a request carries.
    /// - Throws: INVALID_ARGUMENT naming `field` when there is none.
    init(wire weekdays: [Weekday], field: String) throws {
        do {
            try self.init(weekdays)
        } catch {
            throw ServiceError.invalidArgument("\(field): \(error.message)", cause: error)
        }
    }
}

extension Skip {
    /// A skip a stateless request carries.
    /// - Throws: INVALID_ARGUMENT when the date is missing.
    init(_ wire: WireSkip) throws {
        guard let date = wire.date else { throw ServiceError.invalidArgument("skips: a skip needs a date") }
        self.init(habitID: wire.habitId, date: date)
    }
}

extension RestPeriod {
    /// A rest period a request carries (its id and note are not used).
    /// - Throws: INVALID_ARGUMENT naming the field that is missing or wrong.
    init(wire: WireRestPeriod, field: String) throws {
        try self.init(from: wire.from, to: wire.to, field: field)
    }

    /// A rest period from two request dates.
    /// - Throws: INVALID_ARGUMENT naming the field that is missing or wrong.
    init(from: CivilDate?, to: CivilDate?, field: String) throws {
        guard let from else { throw ServiceError.invalidArgument("\(field): a rest period needs from, its first day") }
        guard let to else { throw ServiceError.invalidArgument("\(field): a rest period needs to, its last day") }
        do {
            try self.init(from: from, to: to)
        } catch {
            throw ServiceError.invalidArgument("\(field): \(error.message)", cause: error)
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

extension WireRestPeriod {
    /// The wire form of a stored rest period.
    init(_ record: RestPeriodRecord) {
        self.init()
        id = record.id
        from = record.period.from
        to = record.period.to
        note = record.note
    }
}
