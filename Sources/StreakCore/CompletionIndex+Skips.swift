extension CompletionIndex {
    /// The skips, by day then habit id.
    public var skips: [Skip] {
        zip(skipTable.days, skipTable.ids).flatMap { day, ids in
            ids.map { Skip(habitID: $0, date: CivilDate(validDayNumber: day)) }
        }
    }

    /// Whether any habit is skipped on any day.
    public var hasSkips: Bool { !skipTable.isEmpty }

    /// The state of a habit on a day: done, skipped or nothing.
    public func state(habitID: Int64, on date: CivilDate) -> HabitDayState {
        let day = date.dayNumber
        if hasCompletion(habitID: habitID, onDayNumber: day) { return .done }
        return skipTable.contains(habitID, onDayNumber: day) ? .skipped : .nothing
    }

    /// Applies `action` to a habit's day (see `HabitDayState.applying(_:)`).
    /// - Returns: the state before and after; equal when nothing changed.
    @discardableResult
    public mutating func apply(
        _ action: HabitDayAction,
        habitID: Int64,
        date: CivilDate
    ) -> (before: HabitDayState, after: HabitDayState) {
        let before = state(habitID: habitID, on: date)
        let after = before.applying(action)
        guard after != before else { return (before, after) }
        let day = date.dayNumber
        // A skip changes the walk that bridges rest days (the completion's change drops it too).
        streakCheckpointSlot.noteChange(onDayNumber: day)
        if before.hasCompletion { remove(habitID: habitID, date: date) }
        if before.hasSkip { _ = skipTable.remove(habitID, onDayNumber: day) }
        if after.hasCompletion { record(habitID: habitID, date: date) }
        if after.hasSkip { _ = skipTable.insert(habitID, onDayNumber: day) }
        return (before, after)
    }

    /// Skips a habit on a day, removing its completion that day. - Returns: whether it was not skipped.
    @discardableResult
    public mutating func skip(habitID: Int64, date: CivilDate) -> Bool {
        apply(.skip, habitID: habitID, date: date).before != .skipped
    }

    /// Withdraws a skip. - Returns: whether the day was skipped.
    @discardableResult
    public mutating func unskip(habitID: Int64, date: CivilDate) -> Bool {
        apply(.unskip, habitID: habitID, date: date).before == .skipped
    }

    /// The ids of the habits skipped on `date` that are active that day, ascending.
    public func skippedHabitIDs(on date: CivilDate) -> [Int64] {
        let day = date.dayNumber
        return skipTable.ids(onDayNumber: day).filter { isActive($0, onDayNumber: day) }
    }

    /// Checks that a habit may be skipped on a day: the user has it and it is active that day.
    /// - Throws: `CoreError(.notFound)` for an unknown habit, `CoreError(.invalidArgument)` when
    ///   the habit is not active on `date`.
    public func validateSkip(habitID: Int64, date: CivilDate) throws(CoreError) {
        guard let habit = habit(id: habitID) else { throw CoreError(.notFound, "no habit with id \(habitID)") }
        guard habit.isActive(on: date) else {
            throw CoreError(.invalidArgument, "habit \(habitID) is not active on \(date), so it cannot be skipped")
        }
    }

    /// Whether the habit has a completion on the day number (active or not).
    func hasCompletion(habitID: Int64, onDayNumber day: Int) -> Bool {
        allCompletedHabitIDs(onDayNumber: day).contains(habitID)
    }
}

extension CompletionIndex {
    /// The completions, by day then habit id (those outside a habit's window included: they are
    /// stored, though they count for nothing).
    public var completions: [Completion] {
        zip(daysWithCompletions, completedIDs).flatMap { day, ids in
            ids.map { Completion(habitID: $0, date: CivilDate(validDayNumber: day)) }
        }
    }
}
