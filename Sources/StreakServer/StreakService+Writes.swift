import Dispatch
import FoundationEssentials
import StreakCore
import StreakFraming
import StreakStorage
import StreakTransport
import StreakWire

extension StreakService {
    /// Validates a write against the user's state and submits it to the store. The store's
    /// callback (after the durable commit, in commit order) updates the in-memory state and
    /// pushes watch events; the response is encoded once the whole batch was applied.
    func submitWrite(_ method: WireMethod, _ request: IncomingRequest, user: UserState, responder: Responder) throws {
        switch method {
        case .recordCompletion, .removeCompletion, .skipHabit, .unskipHabit:
            // The most frequent writes check the data in place instead of copying it.
            return try submitDayChange(method, request, user: user, responder: responder)
        default:
            break
        }
        let snapshot = user.snapshot(now: now())
        switch method {
        case .createHabit, .renameHabit, .archiveHabit:
            try submitHabitChange(method, request, user: user, snapshot: snapshot, responder: responder)
        case .batchCompletions:
            try submitBatchCompletions(request, user: user, snapshot: snapshot, responder: responder)
        case .updateSettings:
            try submitUpdateSettings(request, user: user, responder: responder)
        case .setHabitSchedule, .addRestPeriod, .removeRestPeriod:
            try submitScheduleWrite(method, request, user: user, snapshot: snapshot, responder: responder)
        case .deleteHabit, .unarchiveHabit, .importData:
            try submitDataWrite(method, request, user: user, snapshot: snapshot, responder: responder)
        default:
            throw ServiceError.unimplemented(request.method)
        }
    }

    /// CreateHabit, RenameHabit and ArchiveHabit: each answers with the habit.
    private func submitHabitChange(
        _ method: WireMethod,
        _ request: IncomingRequest,
        user: UserState,
        snapshot: UserState.Snapshot,
        responder: Responder
    ) throws {
        switch method {
        case .createHabit:
            let message = try WireCreateHabitRequest(serializedBytes: request.message)
            let schedule = try message.schedule.map { try WeekdaySet(wire: $0.weekdays, field: "schedule") }
            let createdOn = message.createdOn ?? snapshot.today
            let write = StoreWrite.createHabit(name: message.name, createdOn: createdOn, schedule: schedule)
            let days = ChangedDays.from(createdOn, today: snapshot.today)
            submitHabitWrite(write, changing: days, user: user, request: request, responder: responder) {
                WireCreateHabitResponse(habit: WireHabit($0)).serializedBytes()
            }
        case .renameHabit:
            let message = try WireRenameHabitRequest(serializedBytes: request.message)
            try snapshot.data.requireHabit(message.habitId)
            submitHabitWrite(
                .renameHabit(id: message.habitId, name: message.name),
                user: user,
                request: request,
                responder: responder
            ) {
                WireRenameHabitResponse(habit: WireHabit($0)).serializedBytes()
            }
        case .archiveHabit:
            let message = try WireArchiveHabitRequest(serializedBytes: request.message)
            try snapshot.data.requireHabit(message.habitId)
            let archivedOn = message.archivedOn ?? snapshot.today
            let write = StoreWrite.archiveHabit(id: message.habitId, on: archivedOn)
            let days = ChangedDays.from(archivedOn, today: snapshot.today)
            submitHabitWrite(write, changing: days, user: user, request: request, responder: responder) {
                WireArchiveHabitResponse(habit: WireHabit($0)).serializedBytes()
            }
        default:
            throw ServiceError.unimplemented(request.method)
        }
    }

    /// BatchCompletions: the changes checked against the user's habits first; the answer has
    /// every day named and the streak after them.
    private func submitBatchCompletions(
        _ request: IncomingRequest,
        user: UserState,
        snapshot: UserState.Snapshot,
        responder: Responder
    ) throws {
        let message = try WireBatchCompletionsRequest(serializedBytes: request.message)
        let changes = try batchChanges(message, data: snapshot.data)
        let days = Set(changes.map(\.date)).sorted()
        submitCompletions(changes, user: user, request: request, responder: responder) { changed in
            let (streak, current) = user.currentStreak(asOf: message.asOf, now: self.now())
            return WireBatchCompletionsResponse(
                days: days.map { WireDayRecord(current.data.dayRecord(on: $0)) },
                streak: WireStreakSummary(streak),
                changed: Int32(changed.lazy.filter { $0 }.count)
            ).serializedBytes()
        }
    }

    /// UpdateSettings: merged with the stored settings inside the write, so that concurrent
    /// partial updates all count; the lifecycle streams hear of a change.
    private func submitUpdateSettings(_ request: IncomingRequest, user: UserState, responder: Responder) throws {
        let message = try WireUpdateSettingsRequest(serializedBytes: request.message)
        submit(
            .changeSettings(try SettingsUpdate.change(message)),
            user: user,
            request: request,
            responder: responder,
            apply: { result in
                guard case .settings(let stored) = result else { throw ServiceError.unexpectedStoreResult }
                var before = stored
                _ = self.apply(user) { data in
                    before = data.settings
                    data.settings = stored
                }
                self.notifySettingsChanged(user, from: before, to: stored)
                return stored
            },
            answer: { WireUpdateSettingsResponse(settings: WireSettings($0)).serializedBytes() }
        )
    }

    /// Submits a write that returns the habit. With `days` (a schedule change, a habit created or
    /// archived from a past day), the watchers get an event for each of them up to today whose
    /// record changed.
    func submitHabitWrite(
        _ write: StoreWrite,
        changing days: ClosedRange<CivilDate>? = nil,
        user: UserState,
        request: IncomingRequest,
        responder: Responder,
        answer: @escaping @Sendable (Habit) -> [UInt8]
    ) {
        submitChangingDays(
            write,
            days: days,
            user: user,
            request: request,
            responder: responder,
            apply: { result, data in
                guard case .habit(let habit) = result else { throw ServiceError.unexpectedStoreResult }
                data.upsert(habit)
                return habit
            },
            answer: answer
        )
    }

    func submitCompletions(
        _ changes: [CompletionChange],
        user: UserState,
        request: IncomingRequest,
        responder: Responder,
        answer: @escaping @Sendable ([Bool]) -> [UInt8]
    ) {
        guard !changes.isEmpty else {
            // Nothing to make durable: answer from the current state.
            responder.respond(to: request, status: .ok, message: answer([]))
            return
        }
        submit(
            .completions(changes),
            user: user,
            request: request,
            responder: responder,
            apply: { try self.applyCompletions(changes, $0, user: user) },
            answer: answer
        )
    }

    /// Hands a write to the store. `apply` runs in the store's callback after the durable
    /// commit (commit order); `answer` encodes the response after the batch's last `apply`, on the
    /// same thread (the store's batch hook drains `answers`).
    /// The user (pinned by the caller) stays pinned until the answer is encoded.
    func submit<Applied: Sendable>(
        _ write: StoreWrite,
        user: UserState,
        request: IncomingRequest,
        responder: Responder,
        apply: @escaping @Sendable (StoreWriteResult) throws -> Applied,
        answer: @escaping @Sendable (Applied) throws -> [UInt8]
    ) {
        submit(
            write,
            user: user,
            request: request,
            responder: responder,
            steps: ClosureAnswer(applyResult: apply, encode: answer)
        )
    }

    /// Hands a write to the store with its steps after the commit (see `WriteAnswer`), unless
    /// the request's deadline passed already: the transport answers it DEADLINE_EXCEEDED at its
    /// deadline, and a write so answered before it reached the store is not applied. (One whose
    /// deadline passes while the store commits it is applied: its answer is dropped for the
    /// DEADLINE_EXCEEDED, as for any request.)
    func submit<Steps: WriteAnswer>(
        _ write: StoreWrite,
        user: UserState,
        request: IncomingRequest,
        responder: Responder,
        steps: Steps
    ) {
        if let deadline = request.deadline, DispatchTime.now() >= deadline { return }
        let scope = WriteScope(write)
        user.beginOwnWrite(scope)
        let pending = PendingAnswer(
            service: self,
            user: user,
            scope: scope,
            request: request,
            responder: responder,
            steps: steps
        )
        // Closures that capture one object use it as their context: no allocation of their own.
        store.submit(write, for: user.id) { [pending] result in pending.committed(result) }
    }

    /// Applies committed completion changes to the user's state and tells its watchers the days
    /// they changed, in the store or in memory: a change another server made first leaves the
    /// store as it was but brings this server's memory (and its watchers) to it, and the
    /// follower, reading that day later, finds nothing to send (`UserState.applyExternal`).
    /// - Returns: whether each change changed anything in the store.
    func applyCompletions(
        _ changes: some Collection<CompletionChange> & Sendable,
        _ result: StoreWriteResult,
        user: UserState
    ) throws -> [Bool] {
        guard case .completions(let changed) = result else { throw ServiceError.unexpectedStoreResult }
        // The changed days only for a watched user (notifyWatchers checks again, under its lock).
        // Asked under the lock that applies the change: a Watch registered after the answer gets
        // the change's events; one registered before it finds the change in what it reads.
        var watched = false
        // Only these days' records change: a cached heatmap is patched, not built again.
        let inMemory = user.update(now: now(), changing: CompletionChanges(changes: changes)) { data in
            watched = watchers.isWatched(user.id)
            return data.apply(changes, reportingDays: watched)
        }.0
        if watched {
            let changedDays = Set(zip(changes, changed).filter(\.1).map(\.0.date)).union(inMemory).sorted()
            if !changedDays.isEmpty { notifyWatchers(user, days: changedDays) }
        }
        return changed
    }

    /// Applies an acknowledged change to the user's state; returns the state after it.
    func apply(_ user: UserState, _ change: (inout UserData) -> Void) -> UserState.Snapshot {
        user.update(now: now()) { change(&$0) }.1
    }

    /// RecordCompletion, RemoveCompletion, SkipHabit and UnskipHabit: one day of one habit,
    /// checked against the user's data in place.
    private func submitDayChange(
        _ method: WireMethod,
        _ request: IncomingRequest,
        user: UserState,
        responder: Responder
    ) throws {
        let (habitID, requestedDate, asOf) = try completionArguments(method, request.message)
        let change = try user.inspect(now: now()) { data, today throws in
            let date = requestedDate ?? today
            try data.requireHabit(habitID)
            if method == .skipHabit { try data.index.validateSkip(habitID: habitID, date: date) }
            let change: CompletionChange =
                switch method {
                case .recordCompletion: .record(habitID: habitID, date: date)
                case .removeCompletion: .remove(habitID: habitID, date: date)
                case .skipHabit: .skip(habitID: habitID, date: date)
                default: .unskip(habitID: habitID, date: date)
                }
            return change
        }
        submit(
            .completions([change]),
            user: user,
            request: request,
            responder: responder,
            steps: DayChangeAnswer(change: change, asOf: asOf)
        )
    }

    /// The habit, day (nil: today in the user's zone) and `as_of` of a request that changes one
    /// habit's day.
    private func completionArguments(
        _ method: WireMethod,
        _ bytes: [UInt8]
    ) throws -> (habitID: Int64, date: CivilDate?, asOf: CivilDate?) {
        switch method {
        case .recordCompletion:
            let message = try WireRecordCompletionRequest(serializedBytes: bytes)
            return (message.habitId, message.date, message.asOf)
        case .removeCompletion:
            let message = try WireRemoveCompletionRequest(serializedBytes: bytes)
            return (message.habitId, message.date, message.asOf)
        case .skipHabit:
            let message = try WireSkipHabitRequest(serializedBytes: bytes)
            return (message.habitId, message.date, message.asOf)
        default:
            let message = try WireUnskipHabitRequest(serializedBytes: bytes)
            return (message.habitId, message.date, message.asOf)
        }
    }

    private func batchChanges(_ message: WireBatchCompletionsRequest, data: UserData) throws -> [CompletionChange] {
        var changes: [CompletionChange] = []
        changes.reserveCapacity(message.record.count + message.remove.count)
        for completion in message.record {
            let core = try Completion(completion)
            try data.requireHabit(core.habitID)
            changes.append(.record(habitID: core.habitID, date: core.date))
        }
        for completion in message.remove {
            let core = try Completion(completion)
            try data.requireHabit(core.habitID)
            changes.append(.remove(habitID: core.habitID, date: core.date))
        }
        return changes
    }
}

extension ServiceError {
    static let unexpectedStoreResult = ServiceError(.internal, "internal error")
}

/// The steps of a write that changes one habit's day (RecordCompletion, RemoveCompletion,
/// SkipHabit, UnskipHabit): the day's record and the streak summary after it. Kept inline in its
/// `PendingAnswer`: the most frequent write allocates no closure context for its answer.
struct DayChangeAnswer: WriteAnswer {
    let change: CompletionChange
    let asOf: CivilDate?

    func apply(_ result: StoreWriteResult, service: StreakService, user: UserState) throws -> Bool {
        try service.applyCompletions(CollectionOfOne(change), result, user: user).first ?? false
    }

    func answer(_ changed: Bool, service: StreakService, user: UserState) throws -> [UInt8] {
        // The current state includes this write and maybe later ones, all durable.
        let (streak, current) = user.currentStreak(asOf: asOf, now: service.now())
        return WireCompletionResponse(
            day: WireDayRecord(current.data.dayRecord(on: change.date)),
            streak: WireStreakSummary(streak),
            changed: changed
        ).serializedBytes()
    }
}
