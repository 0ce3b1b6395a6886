import Foundation
import StreakCore
import StreakFraming
import StreakStorage
import StreakWire

extension StreakService {
    /// Validates a write against the user's state, submits it to the store, and answers
    /// from the store's callback once the commit is durable.
    func submitWrite(_ method: WireMethod, _ request: IncomingRequest, user: UserState, responder: Responder) throws {
        let snapshot = user.snapshot(now: now())
        let id = request.id
        switch method {
        case .createHabit:
            let message = try WireCreateHabitRequest(serializedBytes: request.message)
            let write = StoreWrite.createHabit(name: message.name, createdOn: message.createdOn ?? snapshot.today)
            submit(write, user: user, id: id, responder: responder) { result, _ in
                guard case .habit(let habit) = result else { throw ServiceError.unexpectedStoreResult }
                _ = self.apply(user) { $0.upsert(habit) }
                return WireCreateHabitResponse.with { $0.habit = WireHabit(habit) }.serializedBytes()
            }
        case .renameHabit:
            let message = try WireRenameHabitRequest(serializedBytes: request.message)
            try snapshot.data.requireHabit(message.habitId)
            submit(.renameHabit(id: message.habitId, name: message.name), user: user, id: id, responder: responder) {
                result, _ in
                guard case .habit(let habit) = result else { throw ServiceError.unexpectedStoreResult }
                _ = self.apply(user) { $0.upsert(habit) }
                return WireRenameHabitResponse.with { $0.habit = WireHabit(habit) }.serializedBytes()
            }
        case .archiveHabit:
            let message = try WireArchiveHabitRequest(serializedBytes: request.message)
            try snapshot.data.requireHabit(message.habitId)
            let write = StoreWrite.archiveHabit(id: message.habitId, on: message.archivedOn ?? snapshot.today)
            submit(write, user: user, id: id, responder: responder) { result, _ in
                guard case .habit(let habit) = result else { throw ServiceError.unexpectedStoreResult }
                _ = self.apply(user) { $0.upsert(habit) }
                return WireArchiveHabitResponse.with { $0.habit = WireHabit(habit) }.serializedBytes()
            }
        case .recordCompletion, .removeCompletion:
            let (habitID, date, asOf) = try completionArguments(method, request.message, today: snapshot.today)
            try snapshot.data.requireHabit(habitID)
            let change: CompletionChange =
                method == .recordCompletion ? .record(habitID: habitID, date: date) : .remove(habitID: habitID, date: date)
            submit(.completions([change]), user: user, id: id, responder: responder) { result, _ in
                guard case .completions(let changed) = result else { throw ServiceError.unexpectedStoreResult }
                let after = self.apply(user) { $0.apply([change]) }
                let response = WireCompletionResponse.with {
                    $0.day = WireDayRecord(after.data.dayRecord(on: date))
                    $0.streak = WireStreakSummary(after.data.streakSummary(asOf: asOf ?? after.today))
                    $0.changed = changed.first ?? false
                }
                if changed.contains(true) { self.notifyWatchers(user, days: [date], snapshot: after) }
                return response.serializedBytes()
            }
        case .batchCompletions:
            let message = try WireBatchCompletionsRequest(serializedBytes: request.message)
            let changes = try batchChanges(message, data: snapshot.data)
            submit(.completions(changes), user: user, id: id, responder: responder) { result, _ in
                guard case .completions(let changed) = result else { throw ServiceError.unexpectedStoreResult }
                let after = self.apply(user) { $0.apply(changes) }
                let days = Set(changes.map(\.date)).sorted()
                let response = WireBatchCompletionsResponse.with {
                    $0.days = days.map { WireDayRecord(after.data.dayRecord(on: $0)) }
                    $0.streak = WireStreakSummary(after.data.streakSummary(asOf: message.asOf ?? after.today))
                    $0.changed = Int32(changed.lazy.filter { $0 }.count)
                }
                let changedDays = Set(zip(changes, changed).filter(\.1).map(\.0.date)).sorted()
                if !changedDays.isEmpty { self.notifyWatchers(user, days: changedDays, snapshot: after) }
                return response.serializedBytes()
            }
        case .updateSettings:
            let message = try WireUpdateSettingsRequest(serializedBytes: request.message)
            let settings = try SettingsUpdate.apply(message, to: snapshot.data.settings)
            submit(.updateSettings(settings), user: user, id: id, responder: responder) { result, _ in
                guard case .settings(let stored) = result else { throw ServiceError.unexpectedStoreResult }
                _ = self.apply(user) { $0.settings = stored }
                return WireUpdateSettingsResponse.with { $0.settings = WireSettings(stored) }.serializedBytes()
            }
        default:
            throw ServiceError.unimplemented(request.method)
        }
    }

    /// Hands a write to the store; `answer` runs in the store's callback after the durable commit.
    private func submit(
        _ write: StoreWrite,
        user: UserState,
        id: UInt32,
        responder: Responder,
        answer: @escaping @Sendable (StoreWriteResult, UserState) throws -> [UInt8]
    ) {
        store.submit(write, for: user.id) { result in
            do {
                let bytes = try answer(result.get(), user)
                responder.respond(to: id, status: .ok, message: bytes)
            } catch {
                self.fail(id, error, responder)
            }
        }
    }

    /// Applies an acknowledged change to the user's state; returns the state after it.
    private func apply(_ user: UserState, _ change: (inout UserData) -> Void) -> UserState.Snapshot {
        user.update(now: now()) { change(&$0) }.1
    }

    private func completionArguments(
        _ method: WireMethod,
        _ bytes: [UInt8],
        today: CivilDate
    ) throws -> (habitID: Int64, date: CivilDate, asOf: CivilDate?) {
        if method == .recordCompletion {
            let message = try WireRecordCompletionRequest(serializedBytes: bytes)
            return (message.habitId, message.date ?? today, message.asOf)
        }
        let message = try WireRemoveCompletionRequest(serializedBytes: bytes)
        return (message.habitId, message.date ?? today, message.asOf)
    }

    private func batchChanges(_ message: WireBatchCompletionsRequest, data: UserData) throws -> [CompletionChange] {
        var changes: [CompletionChange] = []
        changes.reserveCapacity(message.record.count + message.remove.count)
        for completion in message.record {
            try data.requireHabit(completion.habitId)
            guard let date = completion.date else { throw ServiceError.invalidArgument("a completion needs a date") }
            changes.append(.record(habitID: completion.habitId, date: date))
        }
        for completion in message.remove {
            try data.requireHabit(completion.habitId)
            guard let date = completion.date else { throw ServiceError.invalidArgument("a completion needs a date") }
            changes.append(.remove(habitID: completion.habitId, date: date))
        }
        return changes
    }
}

extension ServiceError {
    static let unexpectedStoreResult = ServiceError(.internal, "internal error")
}

extension CompletionChange {
    /// The day the change is about.
    var date: CivilDate {
        switch self {
        case .record(_, let date), .remove(_, let date): date
        }
    }
}
