import StreakWire
import Synchronization

/// Requests that could not be answered inline during one read burst of a connection,
/// collected so that they cross to the work queue in one hop when the burst ends.
final class BurstQueue: Sendable {
    private let pending = Mutex<[ObjectIdentifier: [PendingRequest]]>([:])

    /// Adds a request of the connection whose responder is `owner`.
    func append(_ request: PendingRequest, owner: ObjectIdentifier) {
        pending.withLock { $0[owner, default: []].append(request) }
    }

    /// Takes every request collected for `owner` (empty when none).
    func take(owner: ObjectIdentifier) -> [PendingRequest] {
        pending.withLock { $0.removeValue(forKey: owner) ?? [] }
    }
}

/// A request waiting for the work queue: what the fast path already learned about it.
struct PendingRequest: Sendable {
    var request: IncomingRequest
    var method: WireMethod
    var token: String?
    var user: UserState?
}
