public import StreakCore
public import StreakWire

/// The methods for schedules, skips and rest periods.
extension StreakClient {
    /// CreateHabit with a schedule: a new habit expected on `weekdays` (nil: every day) from
    /// `createdOn` (default: today in the user's zone).
    public func createHabit(
        name: String,
        createdOn: CivilDate? = nil,
        weekdays: [Weekday]?
    ) async throws(StreakClientError) -> WireHabit {
        let response: WireCreateHabitResponse = try await call(
            .createHabit,
            WireCreateHabitRequest(name: name, createdOn: createdOn, schedule: weekdays.map(WireWeekdaySet.init))
        )
        return response.habit ?? WireHabit()
    }

    /// SetHabitSchedule: the habit is expected on `weekdays` from `from` (default: today) on; the
    /// days before keep their schedule. All seven weekdays mean every day.
    public func setSchedule(
        habitID: Int64,
        weekdays: [Weekday],
        from: CivilDate? = nil
    ) async throws(StreakClientError) -> WireHabit {
        let response: WireSetHabitScheduleResponse = try await call(
            .setHabitSchedule,
            WireSetHabitScheduleRequest(
                habitId: habitID,
                weekdays: WireWeekdaySet(weekdays: weekdays),
                effectiveFrom: from
            )
        )
        return response.habit ?? WireHabit()
    }

    /// SkipHabit (idempotent): the habit is excused on `date` (default: today); a completion that
    /// day is removed. Answers with the new day record and streak.
    public func skip(
        habitID: Int64,
        date: CivilDate? = nil,
        asOf: CivilDate? = nil
    ) async throws(StreakClientError) -> WireCompletionResponse {
        try await call(.skipHabit, WireSkipHabitRequest(habitId: habitID, date: date, asOf: asOf))
    }

    /// UnskipHabit (idempotent): the day goes back to "nothing" for the habit.
    public func unskip(
        habitID: Int64,
        date: CivilDate? = nil,
        asOf: CivilDate? = nil
    ) async throws(StreakClientError) -> WireCompletionResponse {
        try await call(.unskipHabit, WireUnskipHabitRequest(habitId: habitID, date: date, asOf: asOf))
    }

    /// AddRestPeriod: no habit is expected from `from` through `to` (inclusive).
    public func addRestPeriod(
        from: CivilDate,
        to: CivilDate,
        note: String = "",
        asOf: CivilDate? = nil
    ) async throws(StreakClientError) -> WireAddRestPeriodResponse {
        try await call(.addRestPeriod, WireAddRestPeriodRequest(from: from, to: to, note: note, asOf: asOf))
    }

    /// ListRestPeriods: every rest period, ascending by start.
    public func restPeriods() async throws(StreakClientError) -> [WireRestPeriod] {
        let response: WireListRestPeriodsResponse = try await call(.listRestPeriods, WireListRestPeriodsRequest())
        return response.restPeriods
    }

    /// RemoveRestPeriod: the removed period and the streak after it.
    public func removeRestPeriod(
        id: Int64,
        asOf: CivilDate? = nil
    ) async throws(StreakClientError) -> WireRemoveRestPeriodResponse {
        try await call(.removeRestPeriod, WireRemoveRestPeriodRequest(id: id, asOf: asOf))
    }
}
