import StreakCore
import StreakStorage
import StreakTransport
import StreakWire

extension StreakService {
    /// DeleteHabit, UnarchiveHabit and ImportData: whole-habit changes. After the durable commit
    /// the user's state is read again from the store (these change many days at once), and every
    /// day whose record changed is pushed to the user's watchers.
    func submitDataWrite(
        _ method: WireMethod,
        _ request: IncomingRequest,
        user: UserState,
        snapshot: UserState.Snapshot,
        responder: Responder
    ) throws {
        switch method {
        case .deleteHabit: try submitDeleteHabit(request, user: user, snapshot: snapshot, responder: responder)
        case .unarchiveHabit: try submitUnarchiveHabit(request, user: user, snapshot: snapshot, responder: responder)
        case .importData: try submitImport(request, user: user, snapshot: snapshot, responder: responder)
        default: throw ServiceError.unimplemented(request.method)
        }
    }

    /// DeleteHabit: the habit and its records go; its days are pushed to the watchers.
    private func submitDeleteHabit(
        _ request: IncomingRequest,
        user: UserState,
        snapshot: UserState.Snapshot,
        responder: Responder
    ) throws {
        let message = try WireDeleteHabitRequest(serializedBytes: request.message)
        try snapshot.data.requireHabit(message.habitId)
        let today = snapshot.today
        submit(
            .deleteHabit(id: message.habitId),
            user: user,
            request: request,
            responder: responder,
            apply: { result in
                guard case .deletedHabit(let habit, let completions, let skips) = result else {
                    throw ServiceError.unexpectedStoreResult
                }
                // Its records' days, and every day it was active on (each loses it).
                let last = habit.archivedOn.flatMap { try? $0.adding(days: -1) } ?? today
                let active = ChangedDays.list(from: habit.createdOn, through: min(last, today))
                try self.reloadAndNotify(user, days: Set(completions + skips + active).sorted())
                return (habit, completions.count, skips.count)
            },
            answer: { deleted in
                WireDeleteHabitResponse(
                    habit: WireHabit(deleted.0),
                    completions: Int32(deleted.1),
                    skips: Int32(deleted.2)
                ).serializedBytes()
            }
        )
    }

    /// UnarchiveHabit: the habit is active again from its archive day on.
    private func submitUnarchiveHabit(
        _ request: IncomingRequest,
        user: UserState,
        snapshot: UserState.Snapshot,
        responder: Responder
    ) throws {
        let message = try WireUnarchiveHabitRequest(serializedBytes: request.message)
        try snapshot.data.requireHabit(message.habitId)
        let archivedOn = snapshot.data.index.habit(id: message.habitId)?.archivedOn
        let today = snapshot.today
        submit(
            .unarchiveHabit(id: message.habitId),
            user: user,
            request: request,
            responder: responder,
            apply: { result in
                guard case .habit(let habit) = result else { throw ServiceError.unexpectedStoreResult }
                try self.reloadAndNotify(
                    user,
                    days: archivedOn.map { ChangedDays.list(from: $0, through: today) } ?? []
                )
                return habit
            },
            answer: { WireUnarchiveHabitResponse(habit: WireHabit($0)).serializedBytes() }
        )
    }

    /// ImportData: what the request holds, less what was refused before the store.
    private func submitImport(
        _ request: IncomingRequest,
        user: UserState,
        snapshot: UserState.Snapshot,
        responder: Responder
    ) throws {
        let message = try WireImportDataRequest(serializedBytes: request.message)
        let (batch, refused) = ImportRequest.batch(message, today: snapshot.today)
        submit(
            .importData(batch),
            user: user,
            request: request,
            responder: responder,
            apply: { result in
                guard case .imported(let outcome) = result else { throw ServiceError.unexpectedStoreResult }
                try self.reloadAndNotify(user, days: outcome.changedDays)
                return outcome
            },
            answer: { ImportRequest.response($0, refused: refused).serializedBytes() }
        )
    }

    /// Reads the user's data again from the store and, for a watched user, pushes to the watchers
    /// (up to a year after today at most) `days` and every day whose record the reload changed, as
    /// a server that follows this write finds them (`ChangeFollower`): the days whose completions
    /// or skips differ, and, when habits, schedules or rest periods changed, the days up to today
    /// whose record differs. (A reload also brings in what other servers changed and this one has
    /// not followed yet; those days go out now, and the follower, finding them unchanged, sends
    /// nothing for them later.)
    ///
    /// A change of the settings (ImportData's `settings`) sends SETTINGS_CHANGED to the lifecycle
    /// streams, as UpdateSettings does, and no day of its own.
    private func reloadAndNotify(_ user: UserState, days: [CivilDate]) throws {
        let data = try users.data(of: user.id)
        // Asked under the lock that applies the change (see `applyCompletions`).
        var before: UserState.Snapshot?
        var settings = data.settings
        let after = user.update(now: now()) { current in
            settings = current.settings
            if watchers.isWatched(user.id) { before = UserState.Snapshot(data: current, version: 0, today: .min) }
            current = data
        }.1
        guard let before else { return }
        let changed = Set(days).union(ChangedDays.byRecords(before, after))
            .union(ChangedDays.byHabitsOrRestPeriods(before, after))
        if !changed.isEmpty { notifyWatchers(user, days: changed.sorted()) }
        notifySettingsChanged(user, from: settings, to: after.data.settings)
    }
}

/// ImportData's request and response, in the store's terms.
enum ImportRequest {
    /// The batch to apply, and the records refused before it reached the store (a schedule
    /// without weekdays, a rest period that ends before it starts, settings the server does not know).
    static func batch(
        _ message: WireImportDataRequest,
        today: CivilDate
    ) -> (ImportBatch, [ImportOutcome.RecordError]) {
        var refused: [ImportOutcome.RecordError] = []
        var batch = ImportBatch(today: today)
        for (index, wire) in message.habits.enumerated() {
            var habit = HabitHistory(
                name: wire.name,
                createdOn: wire.createdOn,
                archivedOn: wire.archivedOn,
                completions: wire.completions,
                skips: wire.skips
            )
            for entry in wire.schedule {
                guard let from = entry.effectiveFrom else {
                    refused.append(
                        .init(habitIndex: index, field: "schedule", message: "an entry needs effective_from")
                    )
                    continue
                }
                do {
                    habit.schedule.append(
                        ScheduleEntry(
                            effectiveFrom: from,
                            weekdays: try WeekdaySet(wire: entry.weekdays, field: "schedule")
                        )
                    )
                } catch {
                    refused.append(.init(habitIndex: index, field: "schedule", date: from, message: reason(error)))
                }
            }
            batch.habits.append(habit)
        }
        for wire in message.restPeriods {
            do {
                let period = try RestPeriod(wire: wire, field: "rest_periods")
                if let problem = RestPeriodNote.problem(wire.note) {
                    throw ServiceError.invalidArgument("rest_periods: \(problem)")
                }
                batch.restPeriods.append(RestPeriodRecord(id: 0, period: period, note: wire.note))
            } catch {
                refused.append(.init(habitIndex: nil, field: "rest_periods", date: wire.from, message: reason(error)))
            }
        }
        if let settings = message.settings {
            do {
                batch.settings = try SettingsUpdate.change(
                    WireUpdateSettingsRequest.with {
                        $0.timeZone = settings.timeZone
                        $0.locale = settings.locale
                        $0.weekStart = settings.weekStart
                        $0.minPercent = settings.minPercent
                        $0.clearMinPercent = settings.minPercent == 0
                        $0.setDayStart = true
                        $0.dayStartMinutes = settings.dayStartMinutes
                    }
                )
            } catch {
                refused.append(.init(habitIndex: nil, field: "settings", message: reason(error)))
            }
        }
        return (batch, refused)
    }

    /// An error record's message: the status message without its code.
    private static func reason(_ error: any Error) -> String {
        ServiceError.status(for: error).message
    }

    /// The fields of an error record in the order the request has them.
    private static let fieldOrder =
        ["name", "created_on", "archived_on", "schedule", "completions", "skips"]
        + ["rest_periods", "settings"]

    /// Error records in the order of the records they refuse: by habit, then field, then day;
    /// rest periods and the settings after every habit.
    static func inRequestOrder(_ errors: [ImportOutcome.RecordError]) -> [ImportOutcome.RecordError] {
        errors.enumerated().sorted { left, right in
            func key(_ error: ImportOutcome.RecordError) -> (Int, Int, Int) {
                (
                    error.habitIndex ?? .max,
                    fieldOrder.firstIndex(of: error.field) ?? fieldOrder.count,
                    error.date?.dayNumber ?? .min
                )
            }
            let (a, b) = (key(left.element), key(right.element))
            return a != b ? a < b : left.offset < right.offset
        }.map(\.element)
    }

    /// The most error records an answer lists (`ImportDataResponse.errors`; `error_count` has them all).
    static let listedErrors = 1000
    /// The most UTF-8 bytes of an error record's message: a message that quotes the request (an
    /// unknown time zone) is cut.
    static let messageBytes = 1024

    /// The response to an applied batch. It always fits in a 4 MiB frame: at most 1,000 error
    /// records of at most about 1.1 KB each (in request order, the rest counted in `error_count`),
    /// and one habit per request habit, of which at most `HabitLimit.perUser` are not empty (each
    /// is a different habit of the user) and the empty ones take 2 bytes each (the request's
    /// decoding budget bounds them to about 150,000).
    static func response(_ outcome: ImportOutcome, refused: [ImportOutcome.RecordError]) -> WireImportDataResponse {
        let errors = inRequestOrder(refused + outcome.errors)
        return WireImportDataResponse.with {
            $0.habitsCreated = Int32(outcome.habitsCreated)
            $0.habitsMatched = Int32(outcome.habitsMatched)
            $0.completionsAdded = Int32(outcome.completionsAdded)
            $0.skipsAdded = Int32(outcome.skipsAdded)
            $0.restPeriodsAdded = Int32(outcome.restPeriodsAdded)
            $0.schedulesSet = Int32(outcome.schedulesSet)
            $0.settingsChanged = outcome.settingsChanged
            $0.errors = errors.prefix(listedErrors).map { error in
                WireImportRecordError.with {
                    $0.habitIndex = Int32(error.habitIndex ?? -1)
                    $0.field = error.field
                    $0.date = error.date
                    $0.message = cut(error.message)
                }
            }
            $0.errorCount = Int32(clamping: errors.count)
            $0.habits = outcome.habits.map { $0.map(WireHabit.init) ?? WireHabit() }
        }
    }

    /// `message`, or its longest start of whole characters that leaves room for "..." within
    /// `messageBytes`, followed by "...".
    static func cut(_ message: String) -> String {
        guard message.utf8.count > messageBytes else { return message }
        var kept = ""
        var bytes = 0
        for character in message {
            bytes += character.utf8.count
            guard bytes <= messageBytes - 3 else { break }
            kept.append(character)
        }
        return kept + "..."
    }
}
