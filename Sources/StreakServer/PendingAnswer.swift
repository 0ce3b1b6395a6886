import StreakStorage
import StreakTransport

/// What an own write does once the store committed it: applies the store's result to the user's
/// state (`apply`, in commit order), then encodes the answer (`answer`, after the whole batch was
/// applied). A value type kept inside its `PendingAnswer`, so the common writes carry their steps
/// without a closure context of their own.
protocol WriteAnswer: Sendable {
    associatedtype Applied: Sendable
    /// Applies the committed write's result to `user`'s state.
    func apply(_ result: StoreWriteResult, service: StreakService, user: UserState) throws -> Applied
    /// The answer's message, from what `apply` returned.
    func answer(_ applied: Applied, service: StreakService, user: UserState) throws -> [UInt8]
}

/// A write's steps as two closures: for the writes whose answers are rare enough that their
/// closure contexts do not matter.
struct ClosureAnswer<Applied: Sendable>: WriteAnswer {
    let applyResult: @Sendable (StoreWriteResult) throws -> Applied
    let encode: @Sendable (Applied) throws -> [UInt8]

    func apply(_ result: StoreWriteResult, service: StreakService, user: UserState) throws -> Applied {
        try applyResult(result)
    }

    func answer(_ applied: Applied, service: StreakService, user: UserState) throws -> [UInt8] {
        try encode(applied)
    }
}

/// One own write between its hand-off to the store and its answer: what the store's callback
/// applies and what the answer queue then encodes and sends. One object per write, where two
/// closure contexts used to be (the store's callback and the answer queue's entry).
///
/// It holds only where the answer goes (the request's id and generation), not the request: its
/// message and metadata are released on the loop that allocated them.
///
/// `applied` is set by `committed` and read by `answerNow`, both on the store's writer thread and
/// in that order (the answer queue's lock orders the hand-over), hence `@unchecked Sendable`.
final class PendingAnswer<Steps: WriteAnswer>: @unchecked Sendable {
    private let service: StreakService
    private let user: UserState
    private let scope: WriteScope
    private let id: UInt32
    private let generation: UInt64?
    private let responder: Responder
    private let steps: Steps
    private var applied: Steps.Applied?

    init(
        service: StreakService,
        user: UserState,
        scope: WriteScope,
        request: IncomingRequest,
        responder: Responder,
        steps: Steps
    ) {
        self.service = service
        self.user = user
        self.scope = scope
        self.id = request.id
        self.generation = request.generation
        self.responder = responder
        self.steps = steps
    }

    /// The store's callback, after the durable commit: applies the write to the user's state,
    /// then sets the answer aside until the batch was applied.
    func committed(_ result: Result<StoreWriteResult, StorageError>) {
        do {
            do {
                defer { user.finishOwnWrite(scope) }
                applied = try steps.apply(result.get(), service: service, user: user)
            }
            service.answers.submit { [self] in answerNow() }
        } catch {
            user.unpin()
            service.fail(id: id, generation: generation, error, responder)
        }
    }

    /// Encodes and sends the answer (the answer queue's drain), then unpins the user.
    private func answerNow() {
        defer { user.unpin() }
        do {
            guard let applied else { throw ServiceError.unexpectedStoreResult }
            let message = try steps.answer(applied, service: service, user: user)
            responder.respond(to: id, generation: generation, status: .ok, message: message)
        } catch {
            service.fail(id: id, generation: generation, error, responder)
        }
    }
}
