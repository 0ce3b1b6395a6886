/// What happened to one habit on one day: exactly one of done, skipped, nothing.
public enum HabitDayState: Hashable, Sendable, CaseIterable {
    /// Completed: counts as due and completed.
    case done
    /// Excused: not due (unless done, which it then is not).
    case skipped
    /// Neither: due when scheduled and not resting.
    case nothing

    /// The state after `action`. Completing a skipped day makes it done; skipping a done day
    /// removes the completion; every action is idempotent, and undoing what is not there changes
    /// nothing (unskipping a done day keeps it done).
    public func applying(_ action: HabitDayAction) -> HabitDayState {
        switch (action, self) {
        case (.complete, _): return .done
        case (.skip, _): return .skipped
        case (.uncomplete, .done), (.unskip, .skipped): return .nothing
        case (.uncomplete, _), (.unskip, _): return self
        }
    }

    /// Whether a completion row exists in this state (what storage keeps).
    public var hasCompletion: Bool { self == .done }
    /// Whether a skip row exists in this state (what storage keeps).
    public var hasSkip: Bool { self == .skipped }
}

/// A change a user asks for on one habit and day.
public enum HabitDayAction: Hashable, Sendable, CaseIterable {
    /// Record a completion (RecordCompletion).
    case complete
    /// Remove a completion.
    case uncomplete
    /// Excuse the day (Skip).
    case skip
    /// Withdraw the excuse (Unskip).
    case unskip
}
