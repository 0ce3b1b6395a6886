import StreakWire
import Synchronization

/// Requests that could not be answered inline during one read burst of a connection,
/// collected so that they cross to the work queue in one hop when the burst ends.
final class BurstQueue: Sendable {
    private let pending = Mutex<[ObjectIdentifier: [PendingRequest]]>([:])
    private let purgeThreshold: Int

    /// - Parameter purgeThreshold: past this many connections with collected requests, the
    ///   entries whose requests are all gone are dropped (a connection closed mid-burst never
    ///   ends its burst).
    init(purgeThreshold: Int = 4096) {
        self.purgeThreshold = purgeThreshold
    }

    /// Adds a request of the connection it came from.
    func append(_ request: PendingRequest) {
        let owner = ObjectIdentifier(request.responder)
        pending.withLock { pending in
            if pending.count >= purgeThreshold && pending[owner] == nil {
                pending = pending.filter { _, requests in
                    requests.contains { $0.responder.isActive($0.request.id, generation: $0.request.generation) }
                }
            }
            pending[owner, default: []].append(request)
        }
    }

    /// Takes every request collected for `owner` (empty when none).
    func take(owner: ObjectIdentifier) -> [PendingRequest] {
        pending.withLock { $0.removeValue(forKey: owner) ?? [] }
    }
}

/// A request waiting for the work queue: what the fast path already learned about it.
struct PendingRequest: Sendable {
    var request: IncomingRequest
    var responder: Responder
    var method: WireMethod
    var token: String?
    var user: UserState?
}
