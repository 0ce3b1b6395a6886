import StreakCore
import StreakFraming
import StreakStorage
import StreakTransport
import StreakWire

extension StreakService {
    /// Schedules and rest periods: validated against the user's state, made durable through the
    /// store like completions, then applied in memory and pushed to watchers for every changed day.
    func submitScheduleWrite(
        _ method: WireMethod,
        _ request: IncomingRequest,
        user: UserState,
        snapshot: UserState.Snapshot,
        responder: Responder
    ) throws {
        switch method {
        case .setHabitSchedule:
            let message = try WireSetHabitScheduleRequest(serializedBytes: request.message)
            guard let weekdays = message.weekdays else {
                throw ServiceError.invalidArgument("SetHabitSchedule needs weekdays")
            }
            let set = try WeekdaySet(wire: weekdays.weekdays, field: "weekdays")
            try snapshot.data.requireHabit(message.habitId)
            let from = message.effectiveFrom ?? snapshot.today
            submitHabitWrite(
                .setSchedule(habitID: message.habitId, weekdays: set, from: from),
                changing: ChangedDays.from(from, today: snapshot.today),
                user: user,
                request: request,
                responder: responder
            ) { WireSetHabitScheduleResponse(habit: WireHabit($0)).serializedBytes() }
        case .addRestPeriod:
            let message = try WireAddRestPeriodRequest(serializedBytes: request.message)
            let period = try RestPeriod(from: message.from, to: message.to, field: "rest period")
            if let problem = RestPeriodNote.problem(message.note) {
                throw ServiceError.invalidArgument("note: \(problem)")
            }
            submitRestPeriod(
                .addRestPeriod(period, note: message.note),
                added: true,
                days: period.from...period.to,
                asOf: message.asOf,
                user: user,
                snapshot: snapshot,
                request: request,
                responder: responder
            ) { record, streak in
                WireAddRestPeriodResponse(restPeriod: WireRestPeriod(record), streak: streak).serializedBytes()
            }
        case .removeRestPeriod:
            let message = try WireRemoveRestPeriodRequest(serializedBytes: request.message)
            let period = try snapshot.data.requireRestPeriod(message.id).period
            submitRestPeriod(
                .removeRestPeriod(id: message.id),
                added: false,
                days: period.from...period.to,
                asOf: message.asOf,
                user: user,
                snapshot: snapshot,
                request: request,
                responder: responder
            ) { record, streak in
                WireRemoveRestPeriodResponse(restPeriod: WireRestPeriod(record), streak: streak).serializedBytes()
            }
        default:
            throw ServiceError.unimplemented(request.method)
        }
    }

    private func submitRestPeriod(
        _ write: StoreWrite,
        added: Bool,
        days: ClosedRange<CivilDate>,
        asOf: CivilDate?,
        user: UserState,
        snapshot: UserState.Snapshot,
        request: IncomingRequest,
        responder: Responder,
        answer: @escaping @Sendable (RestPeriodRecord, WireStreakSummary) -> [UInt8]
    ) {
        submitChangingDays(
            write,
            days: days,
            user: user,
            request: request,
            responder: responder,
            apply: { result, data in
                guard case .restPeriod(let record) = result else { throw ServiceError.unexpectedStoreResult }
                data.apply(restPeriod: record, added: added)
                return record
            },
            answer: { record in
                answer(record, WireStreakSummary(user.currentStreak(asOf: asOf, now: self.now()).0))
            }
        )
    }

    /// Submits a write that may change many days' records: after the commit, every day of `days`
    /// (nil: none) on or before today whose record changed goes to the watchers.
    func submitChangingDays<Applied: Sendable>(
        _ write: StoreWrite,
        days: ClosedRange<CivilDate>?,
        user: UserState,
        request: IncomingRequest,
        responder: Responder,
        apply: @escaping @Sendable (StoreWriteResult, inout UserData) throws -> Applied,
        answer: @escaping @Sendable (Applied) throws -> [UInt8]
    ) {
        submit(
            write,
            user: user,
            request: request,
            responder: responder,
            apply: { result in
                // The days are compared only for a watched user (notifyWatchers checks again),
                // asked under the lock that applies the change (see `applyCompletions`).
                var before: UserState.Snapshot?
                var applied: Applied?
                var failure: (any Error)?
                let after = self.apply(user) { data in
                    if days != nil, self.watchers.isWatched(user.id) {
                        before = UserState.Snapshot(data: data, version: 0, today: .min)
                    }
                    do { applied = try apply(result, &data) } catch { failure = error }
                }
                if let failure { throw failure }
                guard let applied else { throw ServiceError.unexpectedStoreResult }
                if let before, let range = days {
                    let changed = ChangedDays.between(before, after, in: range, today: after.today)
                    if !changed.isEmpty { self.notifyWatchers(user, days: changed) }
                }
                return applied
            },
            answer: answer
        )
    }

}

/// The days whose records differ between two snapshots of a user.
enum ChangedDays {
    /// The days a change from `first` on may change, for `between`: from `first` through today,
    /// or `first` alone when it is after today (then `between` finds no day).
    static func from(_ first: CivilDate, today: CivilDate) -> ClosedRange<CivilDate> {
        first...max(first, today)
    }

    /// The days from `first` through `last`, ascending: at most the heatmap's 20-year limit, the
    /// latest ones (none when `first` is after `last`).
    static func list(from first: CivilDate, through last: CivilDate) -> [CivilDate] {
        let end = last.dayNumber
        let start = max(first.dayNumber, end - HeatmapOptions.maximumDays + 1)
        guard start <= end else { return [] }
        return (start...end).compactMap { try? CivilDate(dayNumber: $0) }
    }

    /// The days whose completions or skips differ between two snapshots of a user, whatever their
    /// date, ascending.
    static func byRecords(_ before: UserState.Snapshot, _ after: UserState.Snapshot) -> [CivilDate] {
        before.data.index.daysWithOtherRecords(than: after.data.index)
    }

    /// The days whose records differ between two snapshots of a user whose habits, schedules or
    /// rest periods changed (from the first day of its first habit through today); none when only
    /// its settings or day records changed (UpdateSettings sends no events; day records come with
    /// their days).
    static func byHabitsOrRestPeriods(_ before: UserState.Snapshot, _ after: UserState.Snapshot) -> [CivilDate] {
        guard before.data.index.habits != after.data.index.habits || before.data.restPeriods != after.data.restPeriods
        else { return [] }
        guard let first = (before.data.index.habits + after.data.index.habits).map(\.createdOn).min() else { return [] }
        return between(before, after, in: from(first, today: after.today), today: after.today)
    }

    /// The days of `range` on or before `today` (at most the heatmap's 20-year limit, the latest
    /// ones) whose day records differ between `before` and `after`, ascending.
    static func between(
        _ before: UserState.Snapshot,
        _ after: UserState.Snapshot,
        in range: ClosedRange<CivilDate>,
        today: CivilDate
    ) -> [CivilDate] {
        list(from: range.lowerBound, through: min(range.upperBound, today)).filter {
            before.data.dayRecord(on: $0) != after.data.dayRecord(on: $0)
        }
    }
}
