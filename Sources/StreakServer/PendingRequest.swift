import StreakStorage
import StreakTransport
import StreakWire

/// A request of a read burst that waits off the loop: what the fast path already learned about it.
struct PendingRequest: Sendable {
    var request: IncomingRequest
    var responder: Responder
    var method: WireMethod
    /// The bearer token, a view of the request's `authorization` value.
    var token: Substring?
    /// The user's state, when it was in memory.
    var user: UserState?
    /// The user the token cache (or the store) named; nil while the token waits for its check.
    var userID: UserID?
}

/// Whose turn a request off the loop waits for: its user's on the slow path, its connection's
/// among the token checks (whose user the store has yet to name).
enum SlowPathClient: Hashable, Sendable {
    case user(UserID)
    case connection(ObjectIdentifier)
}
