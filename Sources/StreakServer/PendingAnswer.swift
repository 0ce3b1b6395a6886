import StreakStorage
import StreakTransport

/// One own write between its hand-off to the store and its answer: what the store's callback
/// applies and what the answer queue then encodes and sends. One object per write, where two
/// closure contexts used to be (the store's callback and the answer queue's entry).
///
/// It holds only where the answer goes (the request's id and generation), not the request: its
/// message and metadata are released on the loop that allocated them.
///
/// `applied` is set by `committed` and read by `answerNow`, both on the store's writer thread and
/// in that order (the answer queue's lock orders the hand-over), hence `@unchecked Sendable`.
final class PendingAnswer<Applied: Sendable>: @unchecked Sendable {
    private let service: StreakService
    private let user: UserState
    private let scope: WriteScope
    private let id: UInt32
    private let generation: UInt64?
    private let responder: Responder
    private let apply: @Sendable (StoreWriteResult) throws -> Applied
    private let answer: @Sendable (Applied) throws -> [UInt8]
    private var applied: Applied?

    init(
        service: StreakService,
        user: UserState,
        scope: WriteScope,
        request: IncomingRequest,
        responder: Responder,
        apply: @escaping @Sendable (StoreWriteResult) throws -> Applied,
        answer: @escaping @Sendable (Applied) throws -> [UInt8]
    ) {
        self.service = service
        self.user = user
        self.scope = scope
        self.id = request.id
        self.generation = request.generation
        self.responder = responder
        self.apply = apply
        self.answer = answer
    }

    /// The store's callback, after the durable commit: applies the write to the user's state,
    /// then sets the answer aside until the batch was applied.
    func committed(_ result: Result<StoreWriteResult, StorageError>) {
        do {
            do {
                defer { user.finishOwnWrite(scope) }
                applied = try apply(result.get())
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
            responder.respond(to: id, generation: generation, status: .ok, message: try answer(applied))
        } catch {
            service.fail(id: id, generation: generation, error, responder)
        }
    }
}
